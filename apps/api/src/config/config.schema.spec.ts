import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { StructuralPriors } from '@sextant/retrieval';
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
    ['QDRANT_SHARDS', { QDRANT_SHARDS: '0' }],
    ['QDRANT_WRITE_CONSISTENCY', { QDRANT_REPLICATION_FACTOR: '2', QDRANT_WRITE_CONSISTENCY: '3' }],
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

describe('SEXTANT_PRIORS_FILE', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-priors-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, content: unknown) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, typeof content === 'string' ? content : JSON.stringify(content));
    return p;
  };
  const priorsOf = (env: Record<string, string>) => {
    const { rules, defaultWeight } = loadConfig(env, dir).ranking.priors;
    return new StructuralPriors(rules, { defaultWeight });
  };

  it('is the built-in table when unset', () => {
    const priors = priorsOf({});
    expect([priors.priorFor('src/a.ts'), priors.priorFor('test/a.spec.ts'), priors.priorFor('docs/guide.md'), priors.priorFor('vendor/x.js')]).toEqual([1, 0.8, 0.7, 0.4]);
  });

  it('puts its rules before the built-in ones (relative to the working directory), or replaces them with defaults: none', () => {
    file('docs-up.json', { rules: [{ label: 'docs', glob: ['docs/**', '**/*.rst'], weight: 1.2 }, { label: 'core', glob: 'src/core/**', weight: 1.5 }] });
    const added = priorsOf({ SEXTANT_PRIORS_FILE: 'docs-up.json' });
    expect([added.priorFor('docs/guide.md'), added.priorFor('src/core/engine.py'), added.priorFor('test/a.spec.ts'), added.priorFor('src/a.ts')]).toEqual([1.2, 1.5, 0.8, 1]);
    file('only.json', { rules: [{ label: 'core', glob: 'src/core/**', weight: 2 }], defaults: 'none', default_weight: 0.5 });
    const only = priorsOf({ SEXTANT_PRIORS_FILE: path.join(dir, 'only.json') });
    expect([only.priorFor('src/core/a.go'), only.priorFor('test/a.spec.ts'), only.priorFor('vendor/x.js')]).toEqual([2, 0.5, 0.5]);
  });

  it.each([
    ['a missing file', 'missing.json', /cannot read .*missing\.json: ENOENT/],
    ['invalid JSON', file('broken.json', '{"rules": ['), /is not valid JSON/],
    ['an out-of-range weight', file('heavy.json', { rules: [{ label: 'x', glob: 'a/**', weight: 11 }] }), /rules\.0\.weight/],
    ['an unknown key', file('typo.json', { rules: [], default: 1 }), /Unrecognized key/],
    ['a pathological glob', file('glob.json', { rules: [{ label: 'x', glob: '{1..100000}/**', weight: 1 }] }), /rules\.0\.glob: .*brace range/],
  ])('refuses %s, naming the variable', (_what, name, message) => {
    let error: unknown;
    try {
      loadConfig({ SEXTANT_PRIORS_FILE: name }, dir);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([{ variable: 'SEXTANT_PRIORS_FILE', message: expect.stringMatching(message) }]);
  });
});
