import * as path from 'node:path';
import { ConfigError, loadConfig } from './config.schema';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env, '/srv/app');
    return [];
  } catch (err) {
    return (err as ConfigError).problems.map((p) => `${p.variable}: ${p.message}`);
  }
};

describe('config: Ask chat endpoint and local embeddings', () => {
  it('Ask is off without CHAT_MODEL; a model needs a URL or a key, and a URL or key needs a model', () => {
    expect(loadConfig({}, '/srv/app').chat).toMatchObject({ model: null, timeoutMs: 60000, maxRetries: 2 });
    expect(loadConfig({ CHAT_MODEL: 'llama3.1', CHAT_BASE_URL: 'http://ollama:11434/v1' }, '/srv/app').chat).toMatchObject({ model: 'llama3.1', baseURL: 'http://ollama:11434/v1' });
    expect(problemsOf({ CHAT_MODEL: 'gpt-4o-mini' })).toEqual([expect.stringMatching(/^CHAT_API_KEY: is required when CHAT_MODEL is set/)]);
    expect(problemsOf({ CHAT_BASE_URL: 'http://ollama:11434/v1' })).toEqual([expect.stringMatching(/^CHAT_MODEL: is required/)]);
    expect(problemsOf({ CHAT_MODEL: 'm', CHAT_BASE_URL: 'ollama:11434' })).toEqual([expect.stringMatching(/^CHAT_BASE_URL: must be a URL/)]);
    expect(problemsOf({ CHAT_MODEL: 'm', CHAT_API_KEY: 'k', CHAT_TIMEOUT_MS: '5' })).toEqual([expect.stringMatching(/^CHAT_TIMEOUT_MS:/)]);
  });

  it('EMBEDDINGS_PROVIDER=local defaults to bge-small q8, downloads into <data dir>/models, and takes a model path', () => {
    expect(loadConfig({ EMBEDDINGS_PROVIDER: 'local' }, '/srv/app').embeddings).toEqual({
      provider: 'local',
      model: 'Xenova/bge-small-en-v1.5',
      dimensions: undefined,
      modelPath: undefined,
      modelHost: undefined,
      modelCacheDir: path.resolve('/srv/app', 'data', 'models'),
      dtype: 'q8',
      pooling: undefined,
      workers: undefined,
    });
    expect(loadConfig({ EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_MODEL_PATH: 'models/jina-code', EMBEDDINGS_DTYPE: 'fp32', EMBEDDINGS_THREADS: '2' }, '/srv/app').embeddings).toMatchObject({
      model: 'jina-code',
      modelPath: '/srv/app/models/jina-code',
      dtype: 'fp32',
      workers: 2,
    });
    expect(problemsOf({ EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_DTYPE: 'int3' })).toEqual([expect.stringMatching(/^EMBEDDINGS_DTYPE:/)]);
    expect(problemsOf({ EMBEDDINGS_MODEL_PATH: '/models/x' })).toEqual(['EMBEDDINGS_MODEL_PATH: only applies to EMBEDDINGS_PROVIDER=local']);
    expect(problemsOf({ EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_MODEL_HOST: 'mirror.local' })).toEqual([expect.stringMatching(/^EMBEDDINGS_MODEL_HOST: must be a URL/)]);
  });
});
