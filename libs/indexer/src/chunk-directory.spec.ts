import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chunkDirectory, type ChunkDirectoryResult } from './chunk-directory';
import { discoverFiles } from './discovery/discover-files';

const PRIVATE_KEY_BODY = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun';
const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;

function write(root: string, rel: string, content: string | Buffer): void {
  const abs = path.join(root, rel);
  mkdirSync(path.dirname(abs), { recursive: true });
  writeFileSync(abs, content);
}

function bigTypeScript(): string {
  const parts: string[] = ['import { helper } from "./helper";\n'];
  for (let i = 0; parts.join('').length < 200 * 1024; i++) {
    parts.push(`/** Service number ${i}. */\nexport class Service${i} {\n  private count = ${i};\n  run(input: number): number {\n    const doubled = helper(input) * 2;\n    return doubled + this.count;\n  }\n}\n\n`);
  }
  return parts.join('');
}

describe('chunkDirectory on a fixture repository', () => {
  let root: string;
  let result: ChunkDirectoryResult;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'sextant-indexer-'));
    write(root, '.gitignore', 'logs/\n*.tmp\n');
    write(root, 'src/app.ts', 'export function main(): number {\n  return 42;\n}\n');
    write(root, 'src/helper.ts', 'export const helper = (n: number) => n + 1;\n');
    write(root, 'src/generated/.gitignore', '*.ts\n!keep.ts\n');
    write(root, 'src/generated/drop.ts', 'export const dropped = 1;\n');
    write(root, 'src/generated/keep.ts', 'export const kept = 1;\n');
    write(root, 'logs/today.txt', 'log line\n');
    write(root, 'scratch.tmp', 'tmp\n');
    write(root, '.sextantignore', 'docs/private/\n');
    write(root, 'docs/private/notes.md', '# secret plans\n');
    write(root, 'docs/guide.md', '# Guide\n\nIntro.\n\n## Install\n\nRun it.\n');
    write(root, '.env', `API_KEY=${GITHUB_TOKEN}\n`);
    write(root, 'deploy/server.pem', `-----BEGIN RSA PRIVATE KEY-----\n${PRIVATE_KEY_BODY}\n-----END RSA PRIVATE KEY-----\n`);
    write(
      root,
      'src/config.ts',
      `export const token = "${GITHUB_TOKEN}";\nconst key = \`-----BEGIN RSA PRIVATE KEY-----\n${PRIVATE_KEY_BODY}\n${PRIVATE_KEY_BODY}\n-----END RSA PRIVATE KEY-----\`;\nexport function useKey(): string {\n  return key;\n}\n`,
    );
    write(root, 'assets/logo.dat2', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x01, 0x02]));
    write(root, 'public/bundle.js', `var a=1;${'function x(){return a+1};'.repeat(4000)}\n`);
    write(root, 'src/big.ts', bigTypeScript());
    write(root, 'src/broken.py', 'def ok():\n    return 1\n\ndef broken(:\n    return (\n\nprint("after")\n');
    write(root, 'node_modules/dep/index.js', 'module.exports = 1;\n');
    write(root, 'package-lock.json', '{}\n');
    symlinkSync('/etc/passwd', path.join(root, 'passwd-link'));
    symlinkSync('.', path.join(root, 'src/loop'));
    symlinkSync(path.join(root, 'cycle-b'), path.join(root, 'cycle-a'));
    symlinkSync(path.join(root, 'cycle-a'), path.join(root, 'cycle-b'));
    symlinkSync('app.ts', path.join(root, 'src/app-alias.ts'));
    result = await chunkDirectory(root, { workspaceId: 'ws', repoId: 'repo', poolSize: 2 });
  }, 60_000);

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const skipReason = (p: string) => result.skipped.find((s) => s.path === p)?.reason;

  it('indexes exactly the source files a developer would expect', () => {
    expect(result.files.map((f) => f.file.path)).toEqual([
      '.gitignore',
      '.sextantignore',
      'docs/guide.md',
      'src/app-alias.ts',
      'src/app.ts',
      'src/big.ts',
      'src/broken.py',
      'src/config.ts',
      'src/generated/.gitignore',
      'src/generated/keep.ts',
      'src/helper.ts',
    ]);
  });

  it('says why every other path was skipped', () => {
    expect(skipReason('logs/')).toBe('gitignore');
    expect(skipReason('scratch.tmp')).toBe('gitignore');
    expect(skipReason('src/generated/drop.ts')).toBe('gitignore');
    expect(skipReason('docs/private/')).toBe('sextantignore');
    expect(skipReason('.env')).toBe('secret-file');
    expect(skipReason('deploy/server.pem')).toBe('secret-file');
    expect(skipReason('assets/logo.dat2')).toBe('binary');
    expect(skipReason('public/bundle.js')).toBe('minified');
    expect(skipReason('node_modules/')).toBe('excluded-dir');
    expect(skipReason('package-lock.json')).toBe('lockfile');
    expect(skipReason('passwd-link')).toBe('symlink-outside-root');
    expect(skipReason('src/loop/')).toBe('symlink-loop');
    expect(skipReason('cycle-a')).toBe('symlink-loop');
    expect(skipReason('cycle-b')).toBe('symlink-loop');
    const counted = Object.values(result.skippedByReason).reduce((a, b) => a + b, 0);
    expect(counted).toBe(result.skipped.length);
    expect(result.skippedByReason.gitignore).toBe(3);
    expect(result.skippedByReason['symlink-loop']).toBe(3);
  });

  it('never lets secret text reach a chunk', () => {
    const allText = result.files.flatMap((f) => f.result.chunks.map((c) => `${c.content}\n${c.embedText}`)).join('\n');
    expect(allText).not.toContain(GITHUB_TOKEN);
    expect(allText).not.toContain(PRIVATE_KEY_BODY);
    expect(allText).not.toContain('/etc/passwd');
    expect(allText).not.toContain('root:x:0:0');
    const config = result.files.find((f) => f.file.path === 'src/config.ts')!;
    expect(config.redactions).toBe(2);
    const useKey = config.result.chunks.find((c) => c.name === 'useKey')!;
    // Redaction keeps newlines, so the function is still reported on its real lines.
    expect([useKey.startLine, useKey.endLine]).toEqual([5, 7]);
  });

  it('parses the 200 KB TypeScript file structurally', () => {
    const big = result.files.find((f) => f.file.path === 'src/big.ts')!;
    expect(big.file.size).toBeGreaterThan(200 * 1024);
    expect(big.result.parse).toBe('ok');
    const classes = big.result.chunks.filter((c) => c.chunkType === 'class');
    expect(classes.length).toBeGreaterThan(900);
    expect(classes.at(-1)!.name).toMatch(/^Service\d+$/);
  });

  it('still chunks a file with a syntax error without losing its lines', () => {
    const broken = result.files.find((f) => f.file.path === 'src/broken.py')!;
    expect(broken.result.parse === 'fallback' || broken.result.hasSyntaxErrors).toBe(true);
    const text = broken.result.chunks.map((c) => c.content).join('\n');
    for (const line of ['def ok():', 'def broken(:', 'print("after")']) expect(text).toContain(line);
  });

  it('reports parse outcomes per file', () => {
    expect(result.parse.ok + result.parse.fallback + result.parse.unsupported).toBe(result.files.length);
    expect(result.parse.timeouts).toBe(0);
  });

  it('honours extra globs, size limits and symlink settings from config', async () => {
    const out = await discoverFiles(root, { extraIgnoreGlobs: ['docs/', '**/helper.ts'], maxFileBytes: 100 * 1024, followSymlinks: false });
    const reasons = Object.fromEntries(out.skipped.map((s) => [s.path, s.reason]));
    expect(reasons['docs/']).toBe('extra-glob');
    expect(reasons['src/helper.ts']).toBe('extra-glob');
    expect(reasons['src/big.ts']).toBe('too-large');
    expect(reasons['src/app-alias.ts']).toBe('symlink-not-followed');
    expect(out.files.map((f) => f.path)).not.toContain('src/big.ts');
  });
});

describe('chunkDirectory on a repository with more files than the process may open at once', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'sextant-many-files-'));
    for (let i = 0; i < 1500; i++) write(root, `pkg${i % 10}/mod${i}.ts`, `export function f${i}(n: number): number {\n  return n + ${i};\n}\n`);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads every file instead of losing some as unreadable when file descriptors run short', () => {
    // A child process limited to 96 open files (soft and hard: Node raises its soft limit to the
    // hard one). 1,500 files read all at once fail with EMFILE. The library is loaded from source.
    const script = `
      const { chunkDirectory } = require(${JSON.stringify(path.join(__dirname, 'chunk-directory.ts'))});
      chunkDirectory(process.argv[1], { workspaceId: 'ws', repoId: 'repo', poolSize: 2 }).then((r) =>
        console.log(JSON.stringify({ files: r.files.length, unreadable: r.skippedByReason.unreadable, chunks: r.files.reduce((n, f) => n + f.result.chunks.length, 0) })));`;
    const out = execFileSync('bash', ['-c', 'ulimit -n 96 && exec "$0" -r @swc-node/register -e "$1" "$2"', process.execPath, script, root], {
      cwd: path.join(__dirname, '../../..'),
      encoding: 'utf8',
      timeout: 60_000,
    });
    const summary = JSON.parse(out.trim().split('\n').at(-1)!) as { files: number; unreadable: number; chunks: number };
    expect(summary).toEqual({ files: 1500, unreadable: 0, chunks: 1500 });
  }, 70_000);
});
