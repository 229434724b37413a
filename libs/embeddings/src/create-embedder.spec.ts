import { createEmbedder } from './create-embedder';
import { HashEmbedder } from './hash/hash.embedder';
import { OpenAIEmbedder } from './openai/openai.embedder';

describe('createEmbedder', () => {
  it('builds the offline hash embedder by default settings', () => {
    const e = createEmbedder({ provider: 'hash' });
    expect(e).toBeInstanceOf(HashEmbedder);
    expect(e.id).toBe('hash-v1:384');
    expect(createEmbedder({ provider: 'hash', dimensions: 256 }).dimensions).toBe(256);
  });

  it('builds an OpenAI-compatible embedder whose id names provider, model and size', () => {
    const e = createEmbedder({ provider: 'openai', baseURL: 'http://localhost:11434/v1', model: 'nomic-embed-text', dimensions: 768 });
    expect(e).toBeInstanceOf(OpenAIEmbedder);
    expect(e.id).toBe('openai:nomic-embed-text:768');
  });

  it('rejects a model name for the hash provider and unknown providers with clear errors', () => {
    expect(() => createEmbedder({ provider: 'hash', model: 'text-embedding-3-small' })).toThrow(/hash provider has no models/);
    expect(() => createEmbedder({ provider: 'cohere' as 'hash' })).toThrow(/Unknown embeddings provider "cohere"/);
  });
});
