import { isKnownTrailerLine, stripQueryTrailers } from './commit-trailers';

describe('stripQueryTrailers', () => {
  it('leaves out well-known trailers and cherry-pick notes, wherever they are, and counts them', () => {
    const message = ['Fix cookie expiry (#812)', '', 'Expired cookies were sent again.', '(cherry picked from commit 0a1b2c3d)', '', 'Co-authored-by: Ada <ada@example.com>', 'Signed-off-by: Bo <bo@example.com>'].join('\n');
    expect(stripQueryTrailers(message)).toEqual({ text: 'Fix cookie expiry (#812)\n\nExpired cookies were sent again.', dropped: 3 });
  });

  it('keeps prose that looks like a key and value, and a query that is only a trailer', () => {
    const prose = 'Cache per process\n\nNote: the cache is not shared.\nFixes: #12';
    expect(stripQueryTrailers(prose)).toEqual({ text: prose, dropped: 0 });
    expect(stripQueryTrailers('Signed-off-by: Ada')).toEqual({ text: 'Signed-off-by: Ada', dropped: 0 });
  });

  it('reads CRLF line ends and indented trailers', () => {
    expect(stripQueryTrailers('Fix parser\r\n\r\n  Reviewed-by: Ada\r\n')).toEqual({ text: 'Fix parser', dropped: 1 });
    expect(isKnownTrailerLine('  change-id: I0123abc ')).toBe(true);
    expect(isKnownTrailerLine('Closes: #4')).toBe(false);
  });
});
