import { EmbeddingDimensionMismatchError } from '../embedding-dimension-mismatch.error';
import { EmbeddingError } from '../embedding.error';
import { fakeVector, FakeOpenAIServer } from './__tests__/fake-openai.server';
import { OpenAIEmbedder, OpenAIEmbedderOptions } from './openai.embedder';

const DIMS = 8;

/** The unit vector a correct client must return for `text`. */
const expectedVector = (text: string): number[] => {
  const v = fakeVector(text, DIMS);
  const n = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  return v.map((x) => x / n);
};
const closeTo = (actual: Float32Array, expected: number[]): void => {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((x, i) => expect(actual[i]).toBeCloseTo(x, 5));
};

describe('OpenAIEmbedder against an OpenAI-compatible server', () => {
  let server: FakeOpenAIServer;
  const make = (options: OpenAIEmbedderOptions = {}) =>
    new OpenAIEmbedder({ baseURL: server.baseURL, apiKey: 'sk-test', model: 'test-embed', dimensions: DIMS, retryBaseDelayMs: 5, retryMaxDelayMs: 20, ...options });

  beforeEach(async () => {
    server = await new FakeOpenAIServer(DIMS).start();
  });
  afterEach(() => server.stop());

  it('embeds documents and queries as unit vectors, sending the model, key and dimensions', async () => {
    const embedder = make();
    const [a, b] = await embedder.embedDocuments(['function a() {}', 'class B {}']);
    closeTo(a, expectedVector('function a() {}'));
    closeTo(b, expectedVector('class B {}'));
    closeTo(await embedder.embedQuery('find a'), expectedVector('find a'));
    expect(server.requests[0].body).toMatchObject({ model: 'test-embed', dimensions: DIMS, input: ['function a() {}', 'class B {}'] });
    expect(server.requests[0].authorization).toBe('Bearer sk-test');
    expect(embedder.id).toBe(`openai:test-embed:${DIMS}`);
  });

  it('splits 150 inputs into batches of 64 and keeps their order', async () => {
    const texts = Array.from({ length: 150 }, (_, i) => `chunk number ${i}`);
    const vectors = await make({ batchSize: 64, maxConcurrency: 3 }).embedDocuments(texts);
    expect(server.requests.map((r) => (r.body.input as string[]).length).sort((x, y) => y - x)).toEqual([64, 64, 22]);
    expect(vectors).toHaveLength(150);
    texts.forEach((t, i) => closeTo(vectors[i], expectedVector(t)));
  });

  it('returns [] for no input without calling the server', async () => {
    expect(await make().embedDocuments([])).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('retries a 429 and waits as long as Retry-After says', async () => {
    server.fail({ kind: 'status', status: 429, retryAfter: '1' });
    const [v] = await make().embedDocuments(['hello']);
    closeTo(v, expectedVector('hello'));
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1].at - server.requests[0].at).toBeGreaterThanOrEqual(950);
  });

  it('retries transient 500/503 errors with backoff and then succeeds', async () => {
    server.fail({ kind: 'status', status: 500 }, { kind: 'status', status: 503 });
    const [v] = await make().embedDocuments(['hello']);
    closeTo(v, expectedVector('hello'));
    expect(server.requests).toHaveLength(3);
  });

  it('gives up on a persistent 500 after maxRetries with a clear error', async () => {
    server.failAlways({ kind: 'status', status: 500, message: 'model crashed' });
    const err = await make({ maxRetries: 3 }).embedDocuments(['x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect(err).toMatchObject({ code: 'server_error' });
    expect((err as Error).message).toMatch(/failed after 4 attempt\(s\): HTTP 500.*model crashed/);
    expect((err as Error).message).toContain(server.baseURL);
    expect(server.requests).toHaveLength(4);
  });

  it('does not retry a 400 and says why it failed', async () => {
    server.fail({ kind: 'status', status: 400, message: 'dimensions is not supported' });
    await expect(make().embedDocuments(['x'])).rejects.toMatchObject({ code: 'bad_request', message: expect.stringMatching(/dimensions is not supported/) });
    expect(server.requests).toHaveLength(1);
  });

  it('fails with EmbeddingDimensionMismatchError naming expected and actual size', async () => {
    server.fail({ kind: 'wrong-dimensions', dimensions: 5 });
    const err = await make().embedDocuments(['x']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingDimensionMismatchError);
    expect(err).toMatchObject({ expected: DIMS, got: 5, code: 'dimension_mismatch' });
    expect((err as Error).message).toMatch(/expected 8 dimensions, got 5/);
  });

  it('times out a slow response, and retries it when retries are left', async () => {
    server.fail({ kind: 'slow', delayMs: 1500 });
    await expect(make({ timeoutMs: 200, maxRetries: 0 }).embedQuery('x')).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringMatching(/timed out after 200 ms/),
    });
    // The retry answers at once; its timeout is wide so a loaded CI machine cannot time it out too.
    server.fail({ kind: 'slow', delayMs: 5000 });
    closeTo(await make({ timeoutMs: 1500, maxRetries: 1 }).embedQuery('y'), expectedVector('y'));
    expect(server.requests).toHaveLength(3);
  });

  it('omits dimensions from the request unless configured (servers that reject it still work)', async () => {
    const openaiLike = await new FakeOpenAIServer(1536).start();
    try {
      const known = new OpenAIEmbedder({ baseURL: openaiLike.baseURL, apiKey: 'k', model: 'text-embedding-3-small' });
      expect(known.dimensions).toBe(1536);
      expect((await known.embedQuery('x')).length).toBe(1536);
      expect(openaiLike.requests[0].body).not.toHaveProperty('dimensions');
    } finally {
      await openaiLike.stop();
    }
    await make({ sendDimensions: false }).embedQuery('y');
    expect(server.requests[0].body).not.toHaveProperty('dimensions');
  });

  it('requires dimensions for an unknown model and a key for api.openai.com', () => {
    expect(() => new OpenAIEmbedder({ baseURL: server.baseURL, model: 'nomic-embed-text' })).toThrow(/set dimensions \(EMBEDDINGS_DIM\)/);
    expect(() => new OpenAIEmbedder({ model: 'text-embedding-3-small' })).toThrow(/OPENAI_API_KEY/);
  });

  it('sends a space for empty text, since OpenAI rejects empty input', async () => {
    const [v] = await make().embedDocuments(['']);
    closeTo(v, expectedVector(' '));
  });

  it('stops waiting when aborted during backoff', async () => {
    server.failAlways({ kind: 'status', status: 429, retryAfter: '30' });
    const controller = new AbortController();
    const pending = make().embedDocuments(['x'], controller.signal);
    setTimeout(() => controller.abort(), 100);
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
  });

  it('reports health from a real round trip', async () => {
    await expect(make().health()).resolves.toMatchObject({ ok: true });
    server.failAlways({ kind: 'status', status: 503 });
    const health = await make().health();
    expect(health.ok).toBe(false);
    expect(health.detail).toMatch(/HTTP 503/);
    expect(server.requests.filter((r) => r.body.input[0] === 'health check')).toHaveLength(2);
  });

  it('reports a clear network error when nothing listens', async () => {
    const url = server.baseURL;
    await server.stop();
    await expect(new OpenAIEmbedder({ baseURL: url, model: 'm', dimensions: 4, maxRetries: 1, retryBaseDelayMs: 1 }).embedQuery('x')).rejects.toMatchObject({
      code: 'network',
      message: expect.stringMatching(/failed after 2 attempt\(s\): connection failed/),
    });
  });
});
