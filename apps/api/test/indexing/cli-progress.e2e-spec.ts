import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CLI } from '../helpers/spawn-cli';
import { writeFiles } from '../helpers/fixture-repo';

const run = promisify(execFile);

/**
 * `sextant index` in a real pseudo-terminal (util-linux `script`), as a person at a shell
 * sees it: the progress bar shows values from its first frame and ends at the real count.
 */
describe('the index progress bar on a terminal', () => {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-pty-')));
  afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

  it('never prints raw placeholders and ends at N/N files before the summary', async () => {
    const FILES = 213;
    const repo = path.join(base, 'repo');
    writeFiles(repo, Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`src/m${i}.ts`, `export function f${i}(x: number): number {\n  return x + ${i};\n}\n`])));
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TERM: 'xterm', COLUMNS: '160', SEXTANT_DATA_DIR: path.join(base, 'data'), SEXTANT_ALLOWED_ROOTS: base, DATABASE_URL: '', LOG_LEVEL: 'warn' };
    const command = [process.execPath, CLI, 'index', repo].map((a) => `'${a}'`).join(' ');
    const { stdout } = await run('script', ['-qec', command, '/dev/null'], { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 });
    const screen = stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    expect(screen).not.toMatch(/\{(phase|bar|value|total|chunks|rate|etaText)\}/);
    const frames = [...screen.matchAll(/(\d+)\/(\d+) files/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames[frames.length - 1]).toEqual([FILES, FILES]);
    expect(screen.indexOf(`${FILES}/${FILES} files`)).toBeLessThan(screen.indexOf('Index job'));
    expect(screen).toMatch(new RegExp(`files: ${FILES} discovered, ${FILES} indexed`));
  }, 180_000);
});
