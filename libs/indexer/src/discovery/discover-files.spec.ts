import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverFiles } from './discover-files';

describe('discoverFiles on a deep tree', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sextant-discover-'));
    // 200 directories two levels deep, a file in each, an ignored directory and a lockfile.
    for (let a = 0; a < 20; a++) {
      for (let b = 0; b < 10; b++) {
        const dir = join(root, `pkg${a}`, `mod${b}`);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, `file${b}.ts`), `export const x${a}_${b} = ${b};\n`);
      }
    }
    mkdirSync(join(root, 'generated'));
    writeFileSync(join(root, 'generated', 'out.ts'), 'x');
    writeFileSync(join(root, '.gitignore'), 'generated/\n');
    writeFileSync(join(root, 'package-lock.json'), '{}');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('lets the event loop run between directories, and finds the same files as a walk that never yields', async () => {
    const yields = jest.spyOn(global, 'setImmediate');
    const yielding = await discoverFiles(root, { yieldEveryMs: 0 });
    const yieldsWhenDue = yields.mock.calls.length;
    yields.mockClear();
    const blocking = await discoverFiles(root, { yieldEveryMs: Number.POSITIVE_INFINITY });
    const yieldsNever = yields.mock.calls.length;
    yields.mockRestore();

    // One turn of the event loop per directory entered (201 of them) when every stretch is due.
    expect(yieldsWhenDue).toBeGreaterThanOrEqual(200);
    expect(yieldsNever).toBe(0);
    expect(yielding.files.map((f) => f.path)).toEqual(blocking.files.map((f) => f.path));
    expect(yielding.files.filter((f) => f.path.endsWith('.ts'))).toHaveLength(200);
    expect(yielding.files[1].path).toBe('pkg0/mod0/file0.ts');
    expect(yielding.skipped.map((s) => [s.path, s.reason])).toEqual(expect.arrayContaining([['generated/', 'gitignore'], ['package-lock.json', expect.any(String)]]));
    expect(yielding.skippedByReason).toEqual(blocking.skippedByReason);
  });
});
