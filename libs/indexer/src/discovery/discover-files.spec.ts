import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedIgnoredFiles } from '../git/repo-state';
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

describe('discoverFiles and files git tracks although .gitignore matches them', () => {
  let root: string;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'commit.gpgsign=false', ...args], { cwd: root, encoding: 'utf8' });
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'sextant-tracked-'));
    mkdirSync(join(root, 'src', 'types'), { recursive: true });
    writeFileSync(join(root, 'src', 'types', 'store.ts'), 'export interface Store {}\n');
    writeFileSync(join(root, 'src', 'index.ts'), 'export * from "./types/store";\n');
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
    // Meant for a build output folder at the top, the rule also matches the committed src/types/.
    writeFileSync(join(root, '.gitignore'), 'types\n');
    writeFileSync(join(root, 'src', 'types', 'draft.ts'), 'export const draft = 1;\n'); // untracked: really ignored
    mkdirSync(join(root, 'types'));
    writeFileSync(join(root, 'types', 'index.d.ts'), 'export {};\n'); // build output, untracked
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('keeps the tracked files of an ignored folder and skips its untracked ones', async () => {
    const tracked = await trackedIgnoredFiles(root);
    expect(tracked).toEqual(['src/types/store.ts']);
    const { files, skipped } = await discoverFiles(root, { trackedIgnored: new Set(tracked) });
    expect(files.map((f) => f.path)).toEqual(['.gitignore', 'src/index.ts', 'src/types/store.ts']);
    expect(skipped.map((s) => [s.path, s.reason])).toEqual(expect.arrayContaining([['src/types/draft.ts', 'gitignore'], ['types/', 'gitignore']]));
  });

  it('still skips them without the tracked list, and when .sextantignore names them', async () => {
    expect((await discoverFiles(root)).files.map((f) => f.path)).toEqual(['.gitignore', 'src/index.ts']);
    writeFileSync(join(root, '.sextantignore'), 'src/types/\n');
    try {
      const { files } = await discoverFiles(root, { trackedIgnored: new Set(await trackedIgnoredFiles(root)) });
      expect(files.map((f) => f.path)).not.toContain('src/types/store.ts');
    } finally {
      rmSync(join(root, '.sextantignore'));
    }
  });

  it('lists nothing outside a git work tree', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'sextant-plain-'));
    try {
      expect(await trackedIgnoredFiles(plain)).toEqual([]);
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('discoverFiles and the data directory of the service inside a repository', () => {
  let root: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-discover-data-')));
    for (const [file, text] of Object.entries({ 'src/app.ts': 'export const app = 1;\n', 'var/data/writer.json': '{"pid":1}', 'var/data/clones/ws/other/secret.ts': 'export const other = 2;\n', 'var/notes.md': '# notes\n' })) {
      mkdirSync(join(root, file, '..'), { recursive: true });
      writeFileSync(join(root, file), text);
    }
    // A second way in: a link to the data directory from elsewhere in the tree.
    symlinkSync(join(root, 'var/data'), join(root, 'src/state'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('never enters it, however it is reached, and still indexes its neighbours', async () => {
    const { files, skipped } = await discoverFiles(root, { excludeRealDirs: [join(root, 'var/data')] });
    expect(files.map((f) => f.path)).toEqual(['src/app.ts', 'var/notes.md']);
    expect(skipped.filter((s) => s.reason === 'excluded-dir').map((s) => s.path).sort()).toEqual(['src/state/', 'var/data/']);
    // Without the option the walk reaches its files (by whichever way comes first).
    expect((await discoverFiles(root)).files.map((f) => f.path).filter((p) => p.endsWith('writer.json'))).toHaveLength(1);
  });
});
