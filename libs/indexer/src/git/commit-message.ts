import { isKnownTrailerLine } from '@sextant/retrieval';

const TRAILER_LINE = /^[A-Za-z][\w-]*:\s+\S/;
// A lone "Note: ..." is prose; a trailer block has a hyphenated key or a well-known one.
const TRAILER_KEY = /^[A-Za-z]+-[\w-]*:\s/;

/**
 * Removes git trailers from a commit body: the final paragraph when every line is a
 * `Key: value` trailer, plus well-known trailer lines (Signed-off-by, Co-authored-by,
 * Reviewed-by, Change-Id, ...) and "(cherry picked from commit ...)" anywhere.
 *
 * @example
 * stripTrailers('Explain why.\n\nSigned-off-by: A <a@x>') // 'Explain why.'
 */
export function stripTrailers(body: string): string {
  const paragraphs = body.replace(/\r\n/g, '\n').trim().split(/\n\s*\n/);
  while (paragraphs.length > 0) {
    const lines = paragraphs[paragraphs.length - 1].split('\n').map((l) => l.trim()).filter(Boolean);
    const isTrailerBlock =
      lines.every((l) => TRAILER_LINE.test(l) || isKnownTrailerLine(l)) && lines.some((l) => TRAILER_KEY.test(l) || isKnownTrailerLine(l));
    if (lines.length === 0 || isTrailerBlock) paragraphs.pop();
    else break;
  }
  return paragraphs
    .map((p) => p.split('\n').filter((l) => !isKnownTrailerLine(l)).join('\n'))
    .filter((p) => p.trim())
    .join('\n\n')
    .trim();
}
