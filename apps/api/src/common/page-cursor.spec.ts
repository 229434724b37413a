import fc from 'fast-check';
import { DomainError, DomainErrorCode } from './domain-error';
import { decodePageCursor, encodePageCursor, pageFromRows, pageOfList } from './page-cursor';

describe('page cursors', () => {
  it('decode what they encode, and no cursor is the first page', () => {
    fc.assert(fc.property(fc.nat(), (offset) => decodePageCursor(encodePageCursor(offset)) === offset));
    expect(decodePageCursor(undefined)).toBe(0);
  });

  it('refuse anything this server did not hand out with invalid_input', () => {
    for (const bad of ['', 'abc', encodePageCursor(-1), Buffer.from('{"o":1.5}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      expect(() => decodePageCursor(bad)).toThrow(DomainError);
      try {
        decodePageCursor(bad);
      } catch (e) {
        expect((e as DomainError).code).toBe(DomainErrorCode.InvalidInput);
      }
    }
  });

  it('walking pageOfList from the first page visits every item once, in order, for any list and page size', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 1, max: 7 }), (all, limit) => {
        const seen: number[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages <= all.length + 1; pages++) {
          const page = pageOfList(all, { limit, cursor });
          expect(page.items.length).toBeLessThanOrEqual(limit);
          seen.push(...page.items);
          if (!page.next_cursor) break;
          cursor = page.next_cursor;
        }
        expect(seen).toEqual(all);
      }),
    );
  });

  it('pageFromRows reports a next page only when the extra row exists', () => {
    expect(pageFromRows([1, 2, 3], 2, 4)).toEqual({ items: [1, 2], next_cursor: encodePageCursor(6) });
    expect(pageFromRows([1, 2], 2, 4)).toEqual({ items: [1, 2], next_cursor: null });
  });
});
