/**
 * The embedded store's in-memory keyword index must rank exactly like the SQLite FTS5 table it
 * replaced: same matches for AND / OR / PHRASE and the same BM25 scores, after any sequence of
 * adds, replacements and removals. FTS5 itself is the oracle here.
 */
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { KeywordMode } from '@sextant/retrieval';
import { KeywordIndex } from '../../src/storage/embedded/keyword-index';

const VOCAB = ['get', 'user', 'id', 'the', 'parse', 'http', 'response', 'cache', 'x1', 'zz'];
const word = fc.constantFrom(...VOCAB);
const doc = fc.array(word, { minLength: 0, maxLength: 25 });
const op = fc.oneof(
  fc.record({ kind: fc.constant('put' as const), slot: fc.nat(30), tokens: doc }),
  fc.record({ kind: fc.constant('remove' as const), slot: fc.nat(30) }),
  // A query between edits (removals are applied lazily, at the next search).
  fc.record({ kind: fc.constant('query' as const), terms: fc.array(word, { minLength: 1, maxLength: 3 }) }),
);
const query = fc.record({
  mode: fc.constantFrom<KeywordMode>('and', 'or', 'phrase'),
  terms: fc.array(word, { minLength: 1, maxLength: 4 }),
  maskSeed: fc.nat(),
});

/**
 * FTS5 over the live documents, inserted fresh: a contentless FTS5 table never takes deleted
 * documents out of its BM25 statistics (row count, average length), so the oracle is rebuilt
 * from the final state instead of replaying the edits.
 */
function ftsOracle(docs: Map<number, string[]>) {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE f USING fts5(tokens, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 0 tokenchars '_$.'")`);
  const ins = db.prepare('INSERT INTO f (rowid, tokens) VALUES (?, ?)');
  for (const [slot, tokens] of docs) ins.run(slot, tokens.join(' '));
  const match = db.prepare('SELECT rowid AS slot, -rank AS score FROM f WHERE f MATCH ? ORDER BY rank');
  return {
    search(terms: string[], mode: KeywordMode) {
      const q = (t: string) => `"${t}"`;
      const expr = mode === 'phrase' ? q(terms.join(' ')) : [...new Set(terms)].map(q).join(mode === 'or' ? ' OR ' : ' AND ');
      return match.all(expr) as { slot: number; score: number }[];
    },
    close: () => db.close(),
  };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

describe('KeywordIndex (in-memory BM25) matches FTS5', () => {
  it.each([
    ['intersecting by probing records, OR by MaxScore', 0, 0, Infinity],
    ['intersecting by counting postings, OR term at a time', Infinity, Infinity, Infinity],
    ['OR term at a time in blocks of 4 slots', 8, Infinity, 0],
  ])('returns the same documents with the same BM25 scores, in every mode, under any edit history (%s)', (_how, probeCost, maxScoreMinPostings, blockedOrMinPostings) => {
    const options = { probeCost, maxScoreMinPostings, blockedOrMinPostings, orBlockSlots: 4 };
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 60 }).filter((ops) => ops.some((o) => o.kind === 'put')), fc.array(query, { minLength: 1, maxLength: 8 }), (ops, queries) => {
        const index = new KeywordIndex(options);
        const live = new Map<number, string[]>();
        const records = new Map<number, Buffer>();
        const terms: { id: number; term: string }[] = [];
        for (const o of ops) {
          if (o.kind === 'put') {
            // Parse workers send tokens joined by spaces; half the documents go in that way.
            const record = index.encode(o.slot % 2 === 1 ? o.tokens.join(' ') : o.tokens);
            terms.push(...index.takeNewTerms());
            records.set(o.slot, KeywordIndex.serialize(record));
            index.insert(o.slot, record);
            live.set(o.slot, o.tokens);
          } else if (o.kind === 'remove') {
            index.remove(o.slot);
            live.delete(o.slot);
            records.delete(o.slot);
          } else index.search(o.terms, 'or', new Uint8Array(32).fill(1), 5);
        }
        // A restart: the persisted vocabulary and records, restored into a fresh index, then edited again.
        const restored = new KeywordIndex(options);
        for (const { id, term } of terms) restored.defineTerm(id, term);
        for (const [slot, record] of records) restored.restore(slot, record);
        restored.finishRestore();
        const [extra] = ops.filter((o) => o.kind === 'put').slice(-1) as { slot: number; tokens: string[] }[];
        // Edits after the restart: removing restored documents relies on their restored posting indexes.
        const [firstLive] = [...live.keys()];
        for (const ix of [index, restored]) {
          ix.add(31, [...extra.tokens, 'zz']);
          ix.remove(31);
          if (firstLive !== undefined) ix.remove(firstLive);
        }
        if (firstLive !== undefined) live.delete(firstLive);
        const oracle = ftsOracle(live);
        try {
          for (const q of queries) for (const ix of [index, restored]) {
            const qterms = q.mode === 'phrase' ? q.terms : [...new Set(q.terms)];
            // The filter mask drops roughly a third of the slots.
            const mask = Uint8Array.from({ length: 31 }, (_, s) => ((s * 7 + q.maskSeed) % 3 === 0 ? 0 : 1));
            const expected = oracle.search(qterms, q.mode).filter((h) => mask[h.slot] === 1);
            const got = ix.search(qterms, q.mode, mask, 1000);
            expect(got.map((h) => h.slot).sort((a, b) => a - b)).toEqual(expected.map((h) => h.slot).sort((a, b) => a - b));
            const bySlot = new Map(expected.map((h) => [h.slot, h.score]));
            for (const h of got) expect(close(h.score, bySlot.get(h.slot)!)).toBe(true);
            for (let i = 1; i < got.length; i++) expect(got[i - 1].score).toBeGreaterThanOrEqual(got[i].score);
            // A small k keeps exactly the best scores.
            const top3 = ix.search(qterms, q.mode, mask, 3).map((h) => h.score);
            const best3 = expected.map((h) => h.score).sort((a, b) => b - a).slice(0, 3);
            expect(top3.length).toBe(best3.length);
            top3.forEach((s, i) => expect(close(s, best3[i])).toBe(true));
          }
        } finally {
          oracle.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('ranks identically after heavy churn (posting pool and record arena moved and compacted) and after a restart', () => {
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const words = Array.from({ length: 300 }, (_, i) => `w${i}`);
    const doc = () => Array.from({ length: 5 + Math.floor(rand() * 60) }, () => words[Math.floor(words.length * rand() * rand())]);
    const churned = new KeywordIndex();
    const live = new Map<number, string[]>();
    for (let op = 0; op < 15_000; op++) {
      const slot = Math.floor(rand() * 2500);
      if (rand() < 0.25) {
        churned.remove(slot);
        live.delete(slot);
      } else {
        const tokens = doc();
        churned.add(slot, tokens);
        live.set(slot, tokens);
      }
    }
    const fresh = new KeywordIndex();
    for (const [slot, tokens] of live) fresh.add(slot, tokens);
    const restored = new KeywordIndex();
    const records = [...live].map(([slot, tokens]) => [slot, KeywordIndex.serialize(restored.encode(tokens))] as const);
    restored.takeNewTerms();
    for (const [slot, record] of records) restored.restore(slot, record);
    restored.finishRestore();
    // Edits after the restart touch restored records' posting indexes.
    for (let e = 0; e < 400; e++) {
      const slot = Math.floor(rand() * 2500);
      const tokens = rand() < 0.5 ? doc() : null;
      for (const ix of [churned, fresh, restored]) {
        if (tokens) ix.add(slot, tokens);
        else ix.remove(slot);
      }
      if (tokens) live.set(slot, tokens);
      else live.delete(slot);
    }
    const mask = new Uint8Array(2500).fill(1);
    for (let q = 0; q < 30; q++) {
      const terms = [words[Math.floor(rand() * 40)], words[Math.floor(rand() * 300)], words[Math.floor(rand() * 10)]].slice(0, 1 + (q % 3));
      for (const mode of ['and', 'or', 'phrase'] as const) {
        const expected = fresh.search(terms, mode, mask, 2500);
        expect(churned.search(terms, mode, mask, 2500)).toEqual(expected);
        expect(restored.search(terms, mode, mask, 2500)).toEqual(expected);
      }
    }
    expect(churned.size).toBe(live.size);
  });

  it('OR by MaxScore returns exactly the term-at-a-time top k (same slots, bit-identical scores) on a skewed vocabulary, with filters', () => {
    let seed = 11;
    const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const words = Array.from({ length: 2000 }, (_, i) => `t${i}`);
    const pick = () => words[Math.floor(words.length * rand() ** 3)];
    const pruned = new KeywordIndex({ maxScoreMinPostings: 0 });
    const full = new KeywordIndex({ maxScoreMinPostings: Infinity });
    for (let slot = 0; slot < 3000; slot++) {
      const tokens = Array.from({ length: 3 + Math.floor(rand() * 300) }, pick);
      pruned.add(slot, tokens);
      full.add(slot, tokens);
    }
    const all = new Uint8Array(4000).fill(1);
    const half = Uint8Array.from({ length: 4000 }, (_, s) => (s % 2 === 0 ? 1 : 0));
    for (let q = 0; q < 60; q++) {
      const terms = [...new Set(Array.from({ length: 2 + (q % 7) }, pick))];
      for (const mask of [all, half]) {
        for (const k of [1, 5, 10, 100]) expect(pruned.search(terms, 'or', mask, k)).toEqual(full.search(terms, 'or', mask, k));
      }
    }
  });

  it('blocked OR returns exactly the term-at-a-time top k (same slots, bit-identical scores) on a skewed vocabulary, with filters and block edges', () => {
    let seed = 5;
    const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const words = Array.from({ length: 300 }, (_, i) => `t${i}`);
    const pick = () => words[Math.floor(words.length * rand() ** 3)];
    const blocked = new KeywordIndex({ maxScoreMinPostings: Infinity, blockedOrMinPostings: 0, orBlockSlots: 97 });
    const byDensity = new KeywordIndex({ maxScoreMinPostings: Infinity, blockedOrMinPostings: 1, orBlockSlots: 1000 });
    const full = new KeywordIndex({ maxScoreMinPostings: Infinity, blockedOrMinPostings: Infinity });
    for (let slot = 0; slot < 3000; slot++) {
      // Gaps in the slot range and documents with a term 300 times (its tf read from the record).
      if (slot % 11 === 3) continue;
      const tokens = Array.from({ length: 3 + Math.floor(rand() * 80) }, pick);
      if (slot % 101 === 0) tokens.push(...Array(300).fill(tokens[0]));
      for (const ix of [blocked, byDensity, full]) ix.add(slot, tokens);
    }
    for (const ix of [blocked, byDensity, full]) for (let slot = 500; slot < 700; slot++) ix.remove(slot);
    const all = new Uint8Array(4000).fill(1);
    const third = Uint8Array.from({ length: 4000 }, (_, s) => (s % 3 === 0 ? 1 : 0));
    const short = new Uint8Array(1500).fill(1);
    for (let q = 0; q < 60; q++) {
      const terms = [...new Set(Array.from({ length: 1 + (q % 6) }, pick))];
      for (const mask of [all, third, short]) {
        for (const k of [1, 10, 150]) {
          const expected = full.search(terms, 'or', mask, k);
          expect(expected.length).toBeGreaterThan(0);
          expect(blocked.search(terms, 'or', mask, k)).toEqual(expected);
          expect(byDensity.search(terms, 'or', mask, k)).toEqual(expected);
        }
      }
    }
  });

  it('AND and PHRASE by counting postings (galloping into common terms\' lists once few candidates are left) match probing records, on a skewed vocabulary, with filters', () => {
    let seed = 23;
    const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const words = Array.from({ length: 500 }, (_, i) => `t${i}`);
    const pick = () => words[Math.floor(words.length * rand() ** 4)];
    const counting = new KeywordIndex({ probeCost: Infinity });
    const probing = new KeywordIndex({ probeCost: 0 });
    for (let slot = 0; slot < 4000; slot++) {
      const tokens = Array.from({ length: 3 + Math.floor(rand() * 60) }, pick);
      counting.add(slot, tokens);
      probing.add(slot, tokens);
    }
    const all = new Uint8Array(4000).fill(1);
    const third = Uint8Array.from({ length: 4000 }, (_, s) => (s % 3 === 0 ? 1 : 0));
    let nonEmpty = 0;
    for (let q = 0; q < 80; q++) {
      // A rarer word first, then common ones: the candidates shrink while the lists stay long.
      const terms = [words[20 + Math.floor(rand() * 200)], ...Array.from({ length: 1 + (q % 4) }, () => words[Math.floor(rand() * 8)])];
      for (const mode of ['and', 'phrase'] as const) {
        for (const mask of [all, third]) {
          const got = counting.search(terms, mode, mask, 50);
          const want = probing.search(terms, mode, mask, 50);
          expect(got.map((h) => h.slot)).toEqual(want.map((h) => h.slot));
          got.forEach((h, i) => expect(close(h.score, want[i].score)).toBe(true));
          if (got.length) nonEmpty++;
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(40);
  });

  it('handles documents too long for 16-bit positions', () => {
    const index = new KeywordIndex();
    const long = Array.from({ length: 70_000 }, (_, i) => (i % 7 === 0 ? 'http' : i % 7 === 1 ? 'response' : `w${i % 50}`));
    index.add(3, long);
    index.add(4, ['http', 'client']);
    const all = new Uint8Array(5).fill(1);
    expect(index.search(['http', 'response'], 'phrase', all, 10).map((h) => h.slot)).toEqual([3]);
    expect(index.search(['response', 'http'], 'phrase', all, 10).map((h) => h.slot)).toEqual([]);
    expect(index.search(['http', 'w2'], 'and', all, 10).map((h) => h.slot)).toEqual([3]);
    const restored = new KeywordIndex();
    const record = index.encode(long);
    for (const { id, term } of index.takeNewTerms()) restored.defineTerm(id, term);
    restored.restore(3, KeywordIndex.serialize(record));
    restored.finishRestore();
    expect(restored.search(['http', 'response'], 'phrase', all, 10).map((h) => h.slot)).toEqual([3]);
  });

  it('scores terms repeated more than 255 times in one document exactly like FTS5, also after a restart', () => {
    const index = new KeywordIndex();
    const docs = new Map<number, string[]>([
      [0, [...Array.from({ length: 300 }, () => 'retry'), 'http', 'response']],
      [1, ['retry', 'http', ...Array.from({ length: 256 }, () => 'response')]],
      [2, ['retry', 'later']],
    ]);
    const restored = new KeywordIndex();
    for (const [slot, tokens] of docs) {
      const record = index.encode(tokens);
      for (const { id, term } of index.takeNewTerms()) restored.defineTerm(id, term);
      restored.restore(slot, KeywordIndex.serialize(record));
      index.insert(slot, record);
    }
    restored.finishRestore();
    const oracle = ftsOracle(docs);
    const all = new Uint8Array(3).fill(1);
    try {
      for (const mode of ['and', 'or', 'phrase'] as const) {
        for (const terms of [['retry'], ['retry', 'http'], ['http', 'response'], ['response', 'retry']]) {
          const expected = oracle.search(terms, mode);
          for (const ix of [index, restored]) {
            const got = ix.search(terms, mode, all, 10);
            expect(got.map((h) => h.slot)).toEqual(expected.map((h) => h.slot));
            got.forEach((h, i) => expect(close(h.score, expected[i].score)).toBe(true));
          }
        }
      }
    } finally {
      oracle.close();
    }
  });

  it('refuses a slot that does not fit a posting (2^24 and above) instead of corrupting other documents', () => {
    const index = new KeywordIndex();
    index.add(5, ['parse', 'config']);
    expect(() => index.add(2 ** 24, ['parse'])).toThrow(/slot 16777216 is out of range/);
    expect(() => index.restore(2 ** 24, KeywordIndex.serialize(index.encode(['parse'])))).toThrow(/out of range/);
    index.add(2 ** 24 - 1, ['parse']);
    const mask = new Uint8Array(2 ** 24).fill(1);
    expect(index.search(['parse'], 'or', mask, 10).map((h) => h.slot).sort((a, b) => a - b)).toEqual([5, 2 ** 24 - 1]);
    expect(index.search(['config'], 'and', mask, 10).map((h) => h.slot)).toEqual([5]);
  });

  it('forgets a removed document even when its slot is reused for different text', () => {
    const index = new KeywordIndex();
    index.add(0, ['zebra', 'crossing']);
    index.add(1, ['zebra', 'stripes']);
    index.remove(0);
    index.add(0, ['pedestrian', 'crossing']);
    const all = new Uint8Array([1, 1]);
    expect(index.search(['zebra'], 'and', all, 10).map((h) => h.slot)).toEqual([1]);
    expect(index.search(['zebra', 'crossing'], 'phrase', all, 10)).toEqual([]);
    expect(index.search(['pedestrian', 'crossing'], 'phrase', all, 10).map((h) => h.slot)).toEqual([0]);
  });
});
