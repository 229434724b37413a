import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskInputSchema } from '@sextant/contracts';
import { makeDataset, readDataset, readIssues, taskFiles } from './index';
import { GitFixture } from './__tests__/git-fixture';

describe('makeDataset from a real git history', () => {
  const repo = new GitFixture();
  const out = mkdtempSync(join(tmpdir(), 'sextant-dataset-'));
  const sha: Record<string, string> = {};

  beforeAll(() => {
    sha.c1 = repo.commit('Add session store and router', {
      'src/session.ts': 'export const SESSION_TTL = 86400;\nexport function createSession() {}\n',
      'src/router.ts': 'export class Router {\n  handle(path: string) {}\n}\n',
      'README.md': '# demo\n',
    });
    sha.c2 = repo.commit('Add cookie parsing\n\nParse cookies before sessions.\n\nSigned-off-by: Ada Dev <ada@example.com>', {
      'src/cookies.ts': 'export function parseCookies(h: string) { return h; }\n',
      'src/session.ts': 'export const SESSION_TTL = 86400;\nexport function createSession() { parseCookies(""); }\n',
    });
    repo.mv('src/router.ts', 'src/http/router.ts');
    sha.c3 = repo.commit('Move router under http');
    sha.cutoff = repo.commit('Handle empty paths in router', { 'src/http/router.ts': 'export class Router {\n  handle(path: string) { if (!path) return; }\n}\n' });
    // --- after the cutoff ---
    sha.q1 = repo.commit('Fix createSession ignoring SESSION_TTL', {
      'src/session.ts': 'export const SESSION_TTL = 3600;\nexport function createSession() {}\n',
      'src/new-thing.ts': 'export {};\n',
    });
    sha.bot = repo.commit('Bump lodash from 4.17.20 to 4.17.21', { 'package.json': '{}' }, { name: 'dependabot[bot]', email: 'support@github.com' });
    sha.lock = repo.commit('Refresh lockfile', { 'package-lock.json': '{}' });
    repo.mv('src/cookies.ts', 'src/http/cookies.ts');
    sha.moveCookies = repo.commit('Move cookies next to the router');
    sha.q2 = repo.commit('Cookies are dropped when the browser sends several headers', { 'src/http/cookies.ts': 'export function parseCookies(h: string) { return h.split(","); }\n' });
    sha.big = repo.commit('Sweeping change', Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`src/gen${i}.ts`, `${i}`])));
    sha.typo = repo.commit('Fix typo in README', { 'README.md': '# Demo\n' });
    repo.git(['checkout', '-q', '-b', 'feature']);
    sha.q3 = repo.commit('Refactor matchRoute helper', { 'src/http/router.ts': 'export class Router {\n  handle(path: string) { return path; }\n}\n' });
    repo.git(['checkout', '-q', 'main']);
    repo.git(['merge', '-q', '--no-ff', 'feature', '-m', 'Merge pull request #7 from ada/feature']);
  });
  afterAll(() => {
    repo.dispose();
    rmSync(out, { recursive: true, force: true });
  });

  it('writes tasks, queries, meta and the corpus as FORMAT.md describes', async () => {
    const made = await makeDataset({ repoPath: repo.path, outDir: out, cutoff: sha.cutoff });
    const ds = await readDataset(out);
    expect(ds.warnings).toEqual([]);

    // Tasks: the four commits up to the cutoff, oldest first, trailers stripped, renames followed forward.
    expect(ds.tasks.map((t) => t.id)).toEqual([sha.c1, sha.c2, sha.c3, sha.cutoff]);
    const first = ds.tasks[0];
    expect(first.files.sort()).toEqual(['README.md', 'src/router.ts', 'src/session.ts']);
    expect(taskFiles(first).sort()).toEqual(['README.md', 'src/http/router.ts', 'src/session.ts']);
    expect(ds.tasks[1]).toMatchObject({ title: 'Add cookie parsing', body: 'Parse cookies before sessions.', created_at: '2023-01-01T02:00:00.000Z' });

    // Queries: only real work, only modified files that exist at the cutoff, mapped back through later renames.
    expect(ds.queries).toEqual([
      { id: sha.q1, query: 'Fix createSession ignoring SESSION_TTL', relevant: ['src/session.ts'], type: 'specific' },
      { id: sha.q2, query: 'Cookies are dropped when the browser sends several headers', relevant: ['src/cookies.ts'], type: 'conceptual' },
      // matchRoute looks like an identifier but the corpus has no such name
      { id: sha.q3, query: 'Refactor matchRoute helper', relevant: ['src/http/router.ts'], type: 'conceptual' },
    ]);

    // Corpus = the tree at the cutoff, byte for byte.
    expect(readFileSync(join(ds.corpusDir, 'src/http/router.ts'), 'utf8')).toContain('if (!path) return;');
    expect(readFileSync(join(ds.corpusDir, 'src/cookies.ts'), 'utf8')).toContain('parseCookies');
    expect(() => readFileSync(join(ds.corpusDir, 'src/router.ts'))).toThrow();

    expect(ds.meta).toEqual(made.meta);
    expect(ds.meta).toMatchObject({
      repo: repo.path,
      cutoff_sha: sha.cutoff,
      cutoff_date: '2023-01-01T04:00:00Z',
      counts: {
        tasks: 4,
        queries: 3,
        corpus_files: 4,
        skipped_queries: { bot: 1, 'lockfile-only': 1, 'no-modified-cutoff-files': 1, 'too-many-files': 1, 'typo-or-formatting': 1, merge: 1 },
        query_types: { specific: 1, conceptual: 2 },
      },
      options: { max_files_per_query: 15 },
    });
  });

  it('refuses to overwrite a non-empty corpus unless asked', async () => {
    writeFileSync(join(out, 'corpus', 'stray.txt'), 'x');
    await expect(makeDataset({ repoPath: repo.path, outDir: out, cutoff: sha.cutoff })).rejects.toThrow(/already exists and is not empty/);
    await makeDataset({ repoPath: repo.path, outDir: out, cutoff: sha.cutoff, overwrite: true });
    expect(() => readFileSync(join(out, 'corpus', 'stray.txt'))).toThrow();
  });

  it('takes an ISO date as cutoff, and defaults to 70% of mainline history', async () => {
    const byDate = await makeDataset({ repoPath: repo.path, outDir: out, cutoff: '2023-01-01T04:30:00Z', overwrite: true });
    expect(byDate.meta.cutoff_sha).toBe(sha.cutoff);
    const byDefault = await makeDataset({ repoPath: repo.path, outDir: out, overwrite: true });
    const mainline = repo.git(['rev-list', '--first-parent', '--reverse', 'HEAD']).trim().split('\n');
    // 12 mainline commits (11 + the merge): index round(0.7 × 11) = 8
    expect(mainline).toHaveLength(12);
    expect(byDefault.meta.cutoff_sha).toBe(mainline[8]);
    expect(byDefault.tasks.length).toBeGreaterThan(4);
  });

  it('keeps only long messages as queries when asked (issue-report-like datasets)', async () => {
    const long = await makeDataset({ repoPath: repo.path, outDir: out, cutoff: sha.cutoff, minQueryChars: 45, overwrite: true });
    expect(long.queries.map((q) => q.query)).toEqual(['Cookies are dropped when the browser sends several headers']);
    expect(long.meta.counts.skipped_queries).toMatchObject({ 'short-message': 2 });
    expect(long.meta.options).toMatchObject({ min_query_chars: 45 });
  });

  it('asks issue reports instead of later commits: answers are the files their fixes modified', async () => {
    const issues = [
      { id: '101', title: 'Cookies vanish behind a proxy', body: 'Two Cookie headers arrive; the second one is lost.', fixed_by: [sha.q2.slice(0, 10)] },
      { id: '102', title: 'Cookies are not parsed', body: '', fixed_by: [sha.c2] },
      { id: '103', title: 'Nobody fixed this', body: 'x', fixed_by: ['deadbeefdeadbeef', '--output=/tmp/x'] },
      { id: '104', title: 'Sessions live a day', body: 'SESSION_TTL is ignored.', fixed_by: [sha.q1, sha.typo] },
    ];
    const made = await makeDataset({ repoPath: repo.path, outDir: out, cutoff: sha.cutoff, issues, overwrite: true });
    // 101 through the rename after the cutoff; 104 from both of its fixes (README.md was modified by the second).
    expect(made.queries.map((q) => [q.id, q.query, q.relevant])).toEqual([
      ['101', 'Cookies vanish behind a proxy\n\nTwo Cookie headers arrive; the second one is lost.', ['src/cookies.ts']],
      ['104', 'Sessions live a day\n\nSESSION_TTL is ignored.', ['README.md', 'src/session.ts']],
    ]);
    expect(made.meta.counts.skipped_queries).toEqual({ 'fixed-before-cutoff': 1, 'fix-not-found': 1 });
    expect(made.meta.options).toMatchObject({ issues: 4 });

    const code = await makeDataset({ repoPath: repo.path, outDir: out, cutoff: sha.cutoff, issues, codeOnly: true, overwrite: true });
    expect(code.queries.find((q) => q.id === '104')!.relevant).toEqual(['src/session.ts']);

    // Without a cutoff: just before the oldest fix, so 102 is asked too and the history ends at c1
    // (where src/cookies.ts does not exist yet: 101 has nothing to find and is skipped).
    const all = await makeDataset({ repoPath: repo.path, outDir: out, issues, overwrite: true });
    expect(all.meta.cutoff_sha).toBe(sha.c1);
    expect(all.tasks.map((t) => t.id)).toEqual([sha.c1]);
    expect(all.queries.map((q) => [q.id, q.relevant])).toEqual([
      ['102', ['src/session.ts']],
      ['104', ['README.md', 'src/session.ts']],
    ]);
    expect(all.meta.counts.skipped_queries).toEqual({ 'no-modified-cutoff-files': 1, 'fix-not-found': 1 });

    await expect(makeDataset({ repoPath: repo.path, outDir: out, issues: [issues[2]], overwrite: true })).rejects.toThrow(/none of the issues' fixed_by commits/);
  });

  it('reads issue files line by line and names the bad lines', async () => {
    const file = join(out, 'issues.jsonl');
    writeFileSync(file, `${JSON.stringify({ id: 7, title: 'Crash', fixed_by: ['abc'] })}\n\n${JSON.stringify({ id: '8', title: 'No fix' })}\nnot json\n`);
    await expect(readIssues(file)).rejects.toThrow(/2 invalid line\(s\):\n  line 3: fixed_by: .*\n  line 4: invalid JSON/);
    const { length } = await readIssues(file, { onInvalid: 'skip' });
    expect(length).toBe(1);
    expect((await readIssues(file, { onInvalid: 'skip' }))[0]).toEqual({ id: '7', title: 'Crash', body: '', fixed_by: ['abc'] });
  });

  it('keeps past commits written without a message as tasks the importer accepts, and asks none of the later ones', async () => {
    const quiet = new GitFixture();
    const quietOut = mkdtempSync(join(tmpdir(), 'sextant-dataset-'));
    try {
      quiet.commit('Add parser', { 'src/parser.ts': 'export function parse() {}\n' });
      quiet.commit('Add lexer', { 'src/lexer.ts': 'export function lex() {}\n' });
      writeFileSync(join(quiet.path, 'src/parser.ts'), 'export function parse() { return 1; }\n');
      quiet.git(['commit', '-q', '-a', '--allow-empty-message', '-m', '']);
      const cutoff = quiet.commit('Lex numbers', { 'src/lexer.ts': 'export function lex() { return 2; }\n' });
      writeFileSync(join(quiet.path, 'src/lexer.ts'), 'export function lex() { return 3; }\n');
      quiet.git(['commit', '-q', '-a', '--allow-empty-message', '-m', '']);
      quiet.commit('Parse nested lists', { 'src/parser.ts': 'export function parse() { return [[]]; }\n' });
      const made = await makeDataset({ repoPath: quiet.path, outDir: quietOut, cutoff });
      const silent = made.tasks.find((t) => t.files.includes('src/parser.ts') && t.title !== 'Add parser')!;
      expect(silent.title).toBe('(no message)');
      expect(TaskInputSchema.safeParse({ id: silent.id, title: silent.title, files: silent.files }).success).toBe(true);
      expect(made.queries.map((q) => q.query)).toEqual(['Parse nested lists']);
      expect(made.meta.counts.skipped_queries).toMatchObject({ 'no-message': 1 });
    } finally {
      quiet.dispose();
      rmSync(quietOut, { recursive: true, force: true });
    }
  });

  it('builds a dataset from a history missing old file contents, says so in meta.json, and leaves nothing behind when git fails', async () => {
    const damaged = new GitFixture();
    const damagedOut = mkdtempSync(join(tmpdir(), 'sextant-dataset-'));
    try {
      const session = 'export const SESSION_TTL = 86400;\n'.repeat(20);
      const born = damaged.commit('Add session store and cache', { 'src/session.ts': session, 'src/cache.ts': 'export const cache = {};\n' });
      damaged.mv('src/session.ts', 'src/http/session.ts');
      damaged.mv('src/cache.ts', 'src/http/cache.ts');
      damaged.commit('Move modules under http', { 'src/http/session.ts': `${session}export const SECURE = true;\n` });
      const cutoff = damaged.commit('Cache sessions', { 'src/http/cache.ts': 'export const cache = new Map();\n' });
      damaged.commit('Expire cached sessions with the session TTL', { 'src/http/cache.ts': 'export const cache = new Map(); // ttl\n' });
      const blob = damaged.git(['rev-parse', `${born}:src/session.ts`]).trim();
      rmSync(join(damaged.path, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));

      const made = await makeDataset({ repoPath: damaged.path, outDir: damagedOut, cutoff });
      expect(made.tasks).toHaveLength(3);
      expect(taskFiles(made.tasks.find((t) => t.id === born)!)).toContain('src/http/cache.ts');
      expect(made.queries.map((q) => q.relevant)).toEqual([['src/http/cache.ts']]);
      const meta = JSON.parse(readFileSync(join(damagedOut, 'meta.json'), 'utf8'));
      expect(meta.warnings).toEqual([expect.stringMatching(/file contents of the history are missing/)]);

      // A history git cannot read at all fails before the corpus is written, so the same command can run again.
      const emptyOut = mkdtempSync(join(tmpdir(), 'sextant-dataset-'));
      try {
        const tree = damaged.git(['rev-parse', `${born}^{tree}`]).trim();
        rmSync(join(damaged.path, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
        await expect(makeDataset({ repoPath: damaged.path, outDir: emptyOut, cutoff })).rejects.toThrow(/git log/);
        expect(readdirSync(emptyOut)).toEqual([]);
      } finally {
        rmSync(emptyOut, { recursive: true, force: true });
      }
    } finally {
      damaged.dispose();
      rmSync(damagedOut, { recursive: true, force: true });
    }
  });

  it('explains a bad cutoff or a non-repository', async () => {
    await expect(makeDataset({ repoPath: repo.path, outDir: out, cutoff: 'no-such-ref', overwrite: true })).rejects.toThrow(/neither a commit/);
    await expect(makeDataset({ repoPath: out, outDir: join(out, 'x') })).rejects.toThrow(/not a git repository/);
  });
});
