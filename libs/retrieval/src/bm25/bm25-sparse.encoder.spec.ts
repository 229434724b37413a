import fc from 'fast-check';
import { encodeSparseDocument, encodeSparseQuery, bm25TermWeight } from './bm25-sparse.encoder';
import { termId } from './term-hash';

function dot(a: { indices: number[]; values: number[] }, b: { indices: number[]; values: number[] }): number {
  const m = new Map(a.indices.map((i, j) => [i, a.values[j]]));
  return b.indices.reduce((s, i, j) => s + (m.get(i) ?? 0) * b.values[j], 0);
}

describe('BM25 sparse encoder', () => {
  it('matches a camelCase identifier from its natural-language parts', () => {
    const doc = encodeSparseDocument('export function parseHttpResponse(raw: string) {}');
    const other = encodeSparseDocument('export function renderTemplate(raw: string) {}');
    const q = encodeSparseQuery('parse the http response');
    expect(dot(q, doc)).toBeGreaterThan(dot(q, other));
  });

  it('drops stop words from queries but not from documents', () => {
    expect(encodeSparseQuery('the of and').indices).toEqual([]);
    expect(encodeSparseDocument('the of and').indices.length).toBe(3);
  });

  it('saturates term frequency and penalises long documents', () => {
    expect(bm25TermWeight(10, 100)).toBeLessThan(10 * bm25TermWeight(1, 100));
    expect(bm25TermWeight(1, 1000)).toBeLessThan(bm25TermWeight(1, 10));
  });

  it('term ids are stable unsigned 32-bit values', () => {
    expect(termId('getuserbyid')).toBe(termId('getuserbyid'));
    fc.assert(fc.property(fc.string(), (s) => { const h = termId(s); return Number.isInteger(h) && h >= 0 && h < 2 ** 32; }));
  });

  it('always yields unique sorted indices with positive values (Qdrant rejects duplicates)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (text) => {
      const v = encodeSparseDocument(text);
      return v.indices.length === v.values.length && v.indices.every((x, i) => i === 0 || x > v.indices[i - 1]) && v.values.every((x) => x > 0);
    }));
  });
});
