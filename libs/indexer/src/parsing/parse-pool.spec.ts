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
    // The terminated worker was replaced: the pool still has full capacity.
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

  it('parses files far above 32 KB', async () => {
    const result = await pool.chunk(input('huge.ts', hugeFile));
    expect(result.parse).toBe('ok');
    expect(result.chunks.filter((c) => c.chunkType === 'function')).toHaveLength(8000);
  }, 30_000);
});
