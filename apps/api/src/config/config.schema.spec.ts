import * as path from 'node:path';
import { ConfigError, loadConfig } from './config.schema';

describe('loadConfig', () => {
  it('gives the documented defaults on an empty environment', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config.http).toMatchObject({ port: 3000, host: '127.0.0.1', bodyLimit: '1mb' });
    expect(config.storage.dataDir).toBe(path.resolve('/srv/app', 'data'));
    expect(config.storage.databaseUrl).toBeUndefined();
    expect(config.embeddings).toEqual({ provider: 'hash', model: 'hash', dimensions: 384 });
    expect(config.indexing.allowedRoots).toEqual(['/srv/app']);
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['QDRANT_URL', { QDRANT_URL: 'localhost:6333' }],
    ['EMBEDDINGS_PROVIDER', { EMBEDDINGS_PROVIDER: 'word2vec' }],
    ['EMBEDDINGS_DIM', { EMBEDDINGS_DIM: '-3' }],
    ['OPENAI_API_KEY', { EMBEDDINGS_PROVIDER: 'openai' }],
    ['SEXTANT_BODY_LIMIT', { SEXTANT_BODY_LIMIT: 'lots' }],
  ])('rejects a bad %s and names it', (variable, env) => {
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).message).toContain(variable);
    expect((error as ConfigError).problems.map((p) => p.variable)).toContain(variable);
  });

  it('reports every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'chatty' })).toThrow(/PORT[\s\S]*LOG_LEVEL|LOG_LEVEL[\s\S]*PORT/);
  });

  it('resolves allowed roots and data dir against the working directory', () => {
    const config = loadConfig({ SEXTANT_ALLOWED_ROOTS: 'repos, /abs/other', SEXTANT_DATA_DIR: 'var/sx' }, '/home/me');
    expect(config.indexing.allowedRoots).toEqual(['/home/me/repos', '/abs/other']);
    expect(config.storage.dataDir).toBe('/home/me/var/sx');
  });

  it('treats an empty DATABASE_URL as unset (embedded SQLite)', () => {
    expect(loadConfig({ DATABASE_URL: '' }).storage.databaseUrl).toBeUndefined();
  });
});
