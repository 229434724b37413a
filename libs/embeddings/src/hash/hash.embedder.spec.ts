import fc from 'fast-check';
import { HashEmbedder } from './hash.embedder';

const cosine = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const norm = (a: Float32Array): number => Math.sqrt(cosine(a, a));

const USER_REPO = `
export class UserRepository {
  async getUserById(id: string): Promise<User | undefined> {
    const row = await this.db.query('select * from users where id = $1', [id]);
    return row ? mapUser(row) : undefined;
  }
}`;
const CSV_PARSER = `
export function parseCsvLine(line: string, delimiter = ','): string[] {
  const cells: string[] = [];
  let current = '';
  for (const ch of line) { if (ch === delimiter) { cells.push(current); current = ''; } else current += ch; }
  return [...cells, current];
}`;
const RETRY = `
async function withRetry<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 0; ; i++) { try { return await fn(); } catch (err) { if (i >= attempts) throw err; await sleep(2 ** i * 100); } }
}`;

describe('HashEmbedder', () => {
  const embedder = new HashEmbedder();

  it('has a stable id and 384 dimensions by default', () => {
    expect(embedder.id).toBe('hash-v1:384');
    expect(embedder.dimensions).toBe(384);
  });

  it('gives identical vectors for the same text, across instances', async () => {
    const [a] = await embedder.embedDocuments([USER_REPO]);
    const [b] = await new HashEmbedder().embedDocuments([USER_REPO]);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(Array.from(await embedder.embedQuery(USER_REPO))).toEqual(Array.from(a));
  });

  it('never returns a zero vector, even when a text\'s features cancel out in one bucket', () => {
    // Found by the property below: two tokens whose hashes share a bucket with opposite signs.
    const v = embedder.embed('\u{27823}\u0000\u{2795c}');
    expect(norm(v)).toBeCloseTo(1, 5);
  });

  it('returns unit-length vectors of the configured size for any text, including empty text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const v = embedder.embed(text);
        expect(v).toHaveLength(384);
        expect(norm(v)).toBeCloseTo(1, 5);
      }),
      { numRuns: 300 },
    );
    expect(norm(embedder.embed(''))).toBeCloseTo(1, 5);
    expect(norm(embedder.embed('  (){};  '))).toBeCloseTo(1, 5);
  });

  it('puts code that mentions getUserById closer to "get user by id" than unrelated code', async () => {
    const [user, csv, retry] = await embedder.embedDocuments([USER_REPO, CSV_PARSER, RETRY]);
    const query = await embedder.embedQuery('get user by id');
    expect(cosine(query, user)).toBeGreaterThan(cosine(query, csv) + 0.1);
    expect(cosine(query, user)).toBeGreaterThan(cosine(query, retry) + 0.1);
  });

  it('ranks the right snippet first for identifier and natural-language queries', async () => {
    const docs = await embedder.embedDocuments([USER_REPO, CSV_PARSER, RETRY]);
    const best = async (q: string) => {
      const v = await embedder.embedQuery(q);
      const scores = docs.map((d) => cosine(v, d));
      return scores.indexOf(Math.max(...scores));
    };
    expect(await best('parseCsvLine')).toBe(1);
    expect(await best('parse a csv line with a delimiter')).toBe(1);
    expect(await best('retry with attempts')).toBe(2);
  });

  it('makes camelCase and snake_case spellings of one identifier close', () => {
    const camel = embedder.embed('getUserById');
    const snake = embedder.embed('get_user_by_id');
    const other = embedder.embed('parse_csv_line');
    expect(cosine(camel, snake)).toBeGreaterThan(0.9);
    expect(cosine(camel, other)).toBeLessThan(0.3);
  });

  it('relates word forms through character n-grams (configParser ~ "parsing configuration")', () => {
    const withNgrams = new HashEmbedder();
    const without = new HashEmbedder({ ngramSizes: [] });
    const sim = (e: HashEmbedder, doc: string) => cosine(e.embed(doc), e.embed('parsing configuration'));
    const doc = 'const cfg = configParser.read(path)';
    expect(sim(withNgrams, doc)).toBeGreaterThan(sim(without, doc));
    expect(sim(withNgrams, doc)).toBeGreaterThan(sim(withNgrams, USER_REPO));
    expect(sim(withNgrams, doc)).toBeGreaterThan(sim(withNgrams, RETRY));
  });

  it('ignores stop words in natural-language queries but not inside identifiers', () => {
    expect(Array.from(embedder.embed('the user of the repository'))).toEqual(Array.from(embedder.embed('user repository')));
    expect(Array.from(embedder.embed('the_value'))).not.toEqual(Array.from(embedder.embed('value')));
  });

  it('changes its id when an option changes the vectors, so caches never mix them', () => {
    expect(new HashEmbedder({ dimensions: 256 }).id).toBe('hash-v1:256');
    expect(new HashEmbedder({ ngramSizes: [3, 4] }).id).not.toBe(embedder.id);
    expect(new HashEmbedder({ ngramSizes: [3] }).id).toBe(embedder.id);
  });

  it('rejects invalid dimensions with a clear error', () => {
    expect(() => new HashEmbedder({ dimensions: 0 })).toThrow(/dimensions must be an integer >= 2, got 0/);
  });

  it('embeds a batch in input order and stops when aborted', async () => {
    const texts = [USER_REPO, CSV_PARSER, RETRY];
    const batch = await embedder.embedDocuments(texts);
    texts.forEach((t, i) => expect(Array.from(batch[i])).toEqual(Array.from(embedder.embed(t))));
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embedDocuments(texts, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
  });

  it('reports healthy without any network', async () => {
    await expect(embedder.health()).resolves.toMatchObject({ ok: true });
  });
});
