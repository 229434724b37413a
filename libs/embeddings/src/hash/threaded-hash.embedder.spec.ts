import { HashEmbedder } from './hash.embedder';
import { ThreadedHashEmbedder } from './threaded-hash.embedder';

const TEXTS = Array.from({ length: 100 }, (_, i) => `export function handler${i}(request: Request) {\n  return validateToken(request.headers.authorization, ${i});\n}`);

describe('ThreadedHashEmbedder', () => {
  let threaded: ThreadedHashEmbedder;
  beforeEach(() => {
    threaded = new ThreadedHashEmbedder({ dimensions: 64 }, 8);
  });
  afterEach(() => threaded.close());

  it('gives exactly the vectors and id of the inline hash embedder, batches on the worker and small ones inline', async () => {
    const inline = new HashEmbedder({ dimensions: 64 });
    expect(threaded.id).toBe(inline.id);
    expect(threaded.cacheable).toBe(false);
    const expected = await inline.embedDocuments(TEXTS);
    const small = await threaded.embedDocuments(TEXTS.slice(0, 3));
    expect((threaded as unknown as { worker?: unknown }).worker).toBeUndefined(); // small batches never start the worker
    const big = await threaded.embedDocuments(TEXTS);
    expect((threaded as unknown as { worker?: unknown }).worker).toBeDefined();
    big.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(expected[i])));
    small.forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(expected[i])));
    expect(Array.from(await threaded.embedQuery(TEXTS[5]))).toEqual(Array.from(expected[5]));
  });

  it('answers concurrent batches each with its own vectors, and starts again after close', async () => {
    const halves = await Promise.all([threaded.embedDocuments(TEXTS.slice(0, 50)), threaded.embedDocuments(TEXTS.slice(50))]);
    const all = await new HashEmbedder({ dimensions: 64 }).embedDocuments(TEXTS);
    halves.flat().forEach((v, i) => expect(Array.from(v)).toEqual(Array.from(all[i])));
    await threaded.close();
    expect((await threaded.embedDocuments(TEXTS)).length).toBe(100);
  });

  it('refuses an aborted batch', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(threaded.embedDocuments(TEXTS, controller.signal)).rejects.toMatchObject({ code: 'aborted' });
  });
});
