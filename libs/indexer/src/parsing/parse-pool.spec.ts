import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tokenize } from '@sextant/retrieval';
import { chunkIndexText } from '../chunking/code-chunk';
import { readSourceFile } from '../discovery/read-source-file';
import { ParsePool } from './parse-pool';

const input = (path: string, text: string) => ({ workspaceId: 'ws', repoId: 'repo', path, lang: 'typescript' as const, text });
const hugeFile = 'export function f(a: number): number {\n  return a + 1;\n}\n'.repeat(8000);

describe('ParsePool', () => {
  let pool: ParsePool;
  beforeAll(async () => {
    pool = new ParsePool({ size: 2, timeoutMs: 20_000 });
    // Warm both workers so worker start-up is not mistaken for parse time.
    await Promise.all([pool.chunk(input('warm1.ts', 'const a = 1;')), pool.chunk(input('warm2.ts', 'const b = 2;'))]);
  }, 30_000);
  afterAll(() => pool.close());

  it('chunks files off-thread exactly like chunkFile', async () => {
    const result = await pool.chunk(input('a.ts', 'export class A {\n  m() { return 1; }\n}\n'));
    expect(result.parse).toBe('ok');
    // The class covers the whole file, so there is no (empty) file chunk.
    expect(result.chunks.map((c) => c.symbol)).toEqual(['a.ts:A']);
  });

  it('tokenizes each chunk on the worker when asked, exactly as the store would on its own thread', async () => {
    const text = 'import { get } from "./http";\n\nexport class SessionStore {\n  refreshToken(user_id: string) {\n    return get(`/users/${user_id}/token`);\n  }\n}\n\n// déjà vu: naïve café 42.5\nexport const MAX_RETRIES = 3;\n';
    const [plain, tokenized] = await Promise.all([pool.chunk(input('src/session.ts', text)), pool.chunk(input('src/session.ts', text), { keywordTokens: true })]);
    expect(plain.chunks.every((c) => c.keywordTokens === undefined)).toBe(true);
    expect(tokenized.chunks.map(({ keywordTokens, ...c }) => c)).toEqual(plain.chunks);
    expect(tokenized.chunks.length).toBeGreaterThan(1);
    for (const c of tokenized.chunks) expect(c.keywordTokens!.split(' ')).toEqual(tokenize(chunkIndexText(c)));
  });

  it('abandons a parse that does not finish in time and keeps chunking the rest', async () => {
    const before = pool.stats.timeouts;
    const stuck = pool.chunk(input('stuck.ts', hugeFile), undefined, { timeoutMs: 1 });
    const others = Array.from({ length: 6 }, (_, i) => pool.chunk(input(`ok${i}.ts`, `export function f${i}() {\n  return ${i};\n}\n`)));
    const [stuckResult, ...rest] = await Promise.all([stuck, ...others]);
    expect(stuckResult.parse).toBe('fallback');
    expect(stuckResult.error).toBe('timeout');
    // The fallback still covers the file with line windows.
    expect(stuckResult.chunks.length).toBeGreaterThan(1);
    expect(stuckResult.chunks.at(-1)!.endLine).toBeGreaterThanOrEqual(8000 * 3 - 1);
    expect(rest.map((r) => r.parse)).toEqual(Array(6).fill('ok'));
    expect(rest.map((r) => r.chunks.find((c) => c.chunkType === 'function')!.name)).toEqual(['f0', 'f1', 'f2', 'f3', 'f4', 'f5']);
    expect(pool.stats.timeouts).toBe(before + 1);
    // The pool still has full capacity.
    const after = await Promise.all([pool.chunk(input('x.ts', 'function x() {}')), pool.chunk(input('y.ts', 'function y() {}'))]);
    expect(after.map((r) => r.parse)).toEqual(['ok', 'ok']);
  }, 30_000);

  it('chunks the files queued behind one that times out on the same worker', async () => {
    const single = new ParsePool({ size: 1, timeoutMs: 20_000 });
    try {
      const stuck = single.chunk(input('stuck.ts', hugeFile), undefined, { timeoutMs: 1 });
      const queued = [single.chunk(input('next.ts', 'export function next() {}\n')), single.chunk(input('last.ts', 'export function last() {}\n'))];
      const [stuckResult, ...rest] = await Promise.all([stuck, ...queued]);
      expect(stuckResult.error).toBe('timeout');
      expect(rest.map((r) => [r.parse, r.chunks[0].name])).toEqual([
        ['ok', 'next'],
        ['ok', 'last'],
      ]);
      expect(single.stats).toMatchObject({ timeouts: 1, ok: 2, fallback: 1 });
    } finally {
      await single.close();
    }
  }, 30_000);

  it('starts workers on the first file, stops them when idle, and starts them again for the next file', async () => {
    const idle = new ParsePool({ size: 2, timeoutMs: 20_000, idleMs: 200 });
    try {
      expect(idle.liveWorkers).toBe(0);
      const first = await idle.chunk(input('a.ts', 'export function a() { return 1; }\n'));
      expect(first.parse).toBe('ok');
      expect(idle.liveWorkers).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(idle.liveWorkers).toBe(0);
      const again = await idle.chunk(input('b.ts', 'export function b() { return 2; }\n'));
      expect(again.parse).toBe('ok');
      expect(again.chunks.map((c) => c.symbol)).toContain('b.ts:b');
      expect(idle.liveWorkers).toBe(2);
    } finally {
      await idle.close();
    }
  }, 30_000);

  it('parses files far above 32 KB', async () => {
    const result = await pool.chunk(input('huge.ts', hugeFile));
    expect(result.parse).toBe('ok');
    expect(result.chunks.filter((c) => c.chunkType === 'function')).toHaveLength(8000);
  }, 30_000);

  describe('readAndChunk', () => {
    let dir: string;
    const file = (name: string) => ({ workspaceId: 'ws', repoId: 'repo', path: name, absPath: path.join(dir, name), lang: 'typescript' as const });
    beforeAll(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parse-pool-read-'));
      fs.writeFileSync(path.join(dir, 'config.ts'), 'export const apiKey = "AKIAIOSFODNN7EXAMPLE";\n\nexport function connect(url: string): string {\n  return url;\n}\n');
      fs.writeFileSync(path.join(dir, 'huge.ts'), hugeFile);
      fs.writeFileSync(path.join(dir, 'blob.ts'), Buffer.from([0x65, 0x00, 0x66]));
      fs.writeFileSync(path.join(dir, '.env'), 'TOKEN=1\n');
    });
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('reads, redacts and hashes the file on the worker, with the same chunks as reading it here and chunking its text', async () => {
      const here = await readSourceFile(file('config.ts'));
      if (!here.ok) throw new Error('unreadable fixture');
      const found = await pool.readAndChunk(file('config.ts'), { keywordTokens: true });
      expect(found).toEqual({ read: 'ok', contentHash: here.contentHash, redactions: here.redactions, result: await pool.chunk(input('config.ts', here.text), { keywordTokens: true }) });
      expect(here.redactions).toBe(1);
      expect(JSON.stringify(found)).not.toContain('AKIAIOSFODNN7EXAMPLE');
    });

    it('answers files not to index, and a file whose content hashes as indexed, without chunks', async () => {
      const here = await readSourceFile(file('config.ts'));
      expect(await pool.readAndChunk(file('blob.ts'))).toEqual({ read: 'skipped', reason: 'binary' });
      expect(await pool.readAndChunk(file('.env'))).toEqual({ read: 'skipped', reason: 'secret-file' });
      expect(await pool.readAndChunk(file('gone.ts'))).toMatchObject({ read: 'skipped', reason: 'unreadable' });
      expect(await pool.readAndChunk(file('huge.ts'), undefined, { read: { maxFileBytes: 1000 } })).toEqual({ read: 'skipped', reason: 'too-large' });
      expect(await pool.readAndChunk(file('config.ts'), undefined, { unchangedHash: here.ok ? here.contentHash : null })).toEqual({ read: 'unchanged', contentHash: here.ok && here.contentHash });
    });

    it('falls back to line windows of the file it read when the parse runs out of time', async () => {
      const here = await readSourceFile(file('huge.ts'));
      const found = await pool.readAndChunk(file('huge.ts'), undefined, { timeoutMs: 1 });
      expect(found.read === 'ok' && [found.contentHash, found.result.parse, found.result.error]).toEqual([here.ok && here.contentHash, 'fallback', 'timeout']);
      expect(found.read === 'ok' && found.result.chunks.at(-1)!.endLine).toBeGreaterThanOrEqual(8000 * 3 - 1);
    }, 30_000);

    it('reads a file here when its worker never started it (the pool closed), redacted as on the worker', async () => {
      const single = new ParsePool({ size: 1, timeoutMs: 20_000 });
      const parsing = single.readAndChunk(file('huge.ts'));
      const queued = single.readAndChunk(file('config.ts'));
      await single.close();
      const here = await readSourceFile(file('config.ts'));
      expect((await parsing).read).toBe('ok');
      const closed = await queued;
      expect(closed.read === 'ok' && [closed.contentHash, closed.redactions, closed.result.error]).toEqual([here.ok && here.contentHash, 1, 'pool closed']);
      expect(closed.read === 'ok' && closed.result.chunks.map((c) => c.content).join('')).not.toContain('AKIAIOSFODNN7EXAMPLE');
    }, 30_000);
  });

  it('survives parses stopped at every point of their run, and a close while a worker is mid-parse', () => {
    // In a child process: a worker killed in the middle of a native parse used to abort the whole
    // process ("terminate called after throwing an instance of 'Napi::Error'"), test runner included.
    const script = `
      const { ParsePool } = require(${JSON.stringify(path.join(__dirname, 'parse-pool.ts'))});
      const huge = ${JSON.stringify(hugeFile.slice(0, hugeFile.length / 8000))}.repeat(8000);
      const file = (name, text) => ({ workspaceId: 'ws', repoId: 'repo', path: name, lang: 'typescript', text });
      (async () => {
        const pool = new ParsePool({ size: 1, timeoutMs: 20000 });
        await pool.chunk(file('warm.ts', 'const a = 1;'));
        const outcomes = [];
        for (let ms = 2; ms <= 90; ms += 8) {
          await pool.chunk(file('small.ts', 'const s = 1;')); // the worker is up and idle
          outcomes.push((await pool.chunk(file('huge.ts', huge), undefined, { timeoutMs: ms })).error ?? 'ok');
        }
        const inFlight = [pool.chunk(file('huge.ts', huge)), pool.chunk(file('next.ts', 'const n = 1;'))];
        await new Promise((resolve) => setTimeout(resolve, 50)); // well inside the ~0.4 s the huge file takes
        await pool.close();
        const closed = await Promise.all(inFlight);
        console.log(JSON.stringify({ outcomes, closed: closed.map((r) => r.error ?? r.parse), stats: pool.stats }));
      })();`;
    const child = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { cwd: path.join(__dirname, '../../../..'), encoding: 'utf8', timeout: 120_000 });
    expect({ status: child.status, signal: child.signal, stderr: child.stderr.includes('terminate called') }).toEqual({ status: 0, signal: null, stderr: false });
    const report = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { outcomes: string[]; closed: string[]; stats: { timeouts: number; workerCrashes: number } };
    expect(report.outcomes[0]).toBe('timeout');
    expect(report.outcomes).toContain('timeout');
    expect(report.stats.workerCrashes).toBe(0);
    expect(report.stats.timeouts).toBe(report.outcomes.filter((o) => o === 'timeout').length);
    // The file being parsed when the pool closed is finished; the one queued behind it is not started.
    expect(report.closed).toEqual(['ok', 'pool closed']);
  }, 130_000);
});
