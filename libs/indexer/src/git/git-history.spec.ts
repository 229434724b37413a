import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { changedFilesSince, headCommit, isGitRepo, isNoiseCommit, mergePullRequests, noiseReason, pathsAtHead, readCommitHistory, stripTrailers } from './index';
import { TestRepo } from './__tests__/test-repo';

describe('git history reading against real repositories', () => {
  let repo: TestRepo;
  const shas: Record<string, string> = {};

  beforeAll(() => {
    repo = new TestRepo();
    shas.init = repo.commit('Add session handling\n\nCookies expire after a day.\n\nSigned-off-by: Ada Dev <ada@example.com>', {
      'flask/app.py': 'def create_app():\n    pass\n',
      'flask/session.py': 'SESSION_TTL = 86400\n',
      'weird name\twith tab.txt': 'x',
    });
    repo.mv('flask/app.py', 'src/flask/app.py');
    shas.move = repo.commit('Move package under src/', { 'src/flask/app.py': 'def create_app():\n    return 1\n' });
    shas.lock = repo.commit('Update lockfile', { 'package-lock.json': '{}' });
    shas.bot = repo.commit('Bump lodash from 4.17.20 to 4.17.21', { 'package.json': '{"lodash":"4.17.21"}' }, { name: 'dependabot[bot]', email: '49699333+dependabot[bot]@users.noreply.github.com' });
    // A PR branch with two commits, merged with GitHub's message.
    repo.git(['checkout', '-q', '-b', 'feature/oauth']);
    shas.pr1 = repo.commit('Add OAuth client', { 'src/flask/oauth.py': 'class OAuthClient: pass\n' });
    shas.pr2 = repo.commit('Wire OAuth into session', { 'flask/session.py': 'SESSION_TTL = 3600\n' });
    repo.git(['checkout', '-q', 'main']);
    shas.mainline = repo.commit('Tweak docs', { 'README.md': '# flask\n' });
    shas.merge = repo.merge('feature/oauth', 'Merge pull request #42 from ada/feature/oauth\n\nAdd OAuth login\n\nLets users sign in with GitHub.');
    repo.mv('src/flask/app.py', 'src/flask/application.py');
    shas.move2 = repo.commit('Rename app module');
  });
  afterAll(() => repo.dispose());

  it('keeps a commit whose recorded time zone is nonsense (+51800), dated in UTC', async () => {
    const odd = new TestRepo();
    try {
      const base = odd.commit('Add parser', { 'src/parser.py': 'def parse(): pass\n' });
      const tree = odd.git(['rev-parse', 'HEAD^{tree}']).trim();
      // git itself refuses to write such a date, but repositories converted by other tools have them.
      const raw = `tree ${tree}\nparent ${base}\nauthor Odd Zone <odd@example.com> 1700000000 +51800\ncommitter Odd Zone <odd@example.com> 1700000000 +51800\n\nFix the parser on odd input\n`;
      const sha = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--literally', '--stdin'], { cwd: odd.path, input: raw, encoding: 'utf8' }).trim();
      odd.git(['update-ref', 'refs/heads/main', sha]);
      const commits = await readCommitHistory(odd.path);
      expect(commits.map((c) => c.subject)).toEqual(['Fix the parser on odd input', 'Add parser']);
      expect(commits[0].date).toBe('2023-11-14T22:13:20.000Z');
      for (const c of commits) expect(Number.isNaN(Date.parse(c.date))).toBe(false);
    } finally {
      odd.dispose();
    }
  });

  it('takes the subject from the first non-blank line of a message that starts with blank lines', async () => {
    const odd = new TestRepo();
    try {
      odd.commit('Add test', { 'test/locking.ts': 'it("locks")\n' });
      const tree = odd.git(['rev-parse', 'HEAD^{tree}']).trim();
      const raw = `tree ${tree}\nparent ${odd.head()}\nauthor Ada Dev <ada@example.com> 1557755567 +0200\ncommitter Ada Dev <ada@example.com> 1557755567 +0200\n\n\n\nRemove duplicate test\n\nIt ran twice.\n`;
      const sha = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], { cwd: odd.path, input: raw, encoding: 'utf8' }).trim();
      odd.git(['update-ref', 'refs/heads/main', sha]);
      const [latest] = await readCommitHistory(odd.path);
      expect(latest.subject).toBe('Remove duplicate test');
      expect(latest.body).toBe('It ran twice.');
    } finally {
      odd.dispose();
    }
  });

  it('reads every commit with parents, author, subject, body and changed files', async () => {
    const commits = await readCommitHistory(repo.path);
    expect(commits.map((c) => c.sha)[0]).toBe(shas.move2);
    const init = commits.find((c) => c.sha === shas.init)!;
    expect(init.subject).toBe('Add session handling');
    expect(init.body).toContain('Cookies expire after a day.');
    expect(init.authorEmail).toBe('ada@example.com');
    expect(init.parents).toEqual([]);
    expect(init.date).toMatch(/^2023-01-01T\d\d:00:00\.000Z$/);
    expect(init.files.map((f) => f.path).sort()).toEqual(['flask/app.py', 'flask/session.py', 'weird name\twith tab.txt']);
    expect(init.files.every((f) => f.status === 'A')).toBe(true);
    const merge = commits.find((c) => c.sha === shas.merge)!;
    expect(merge.parents).toHaveLength(2);
    expect(merge.files).toEqual([]);
  });

  it('detects renames, even with a small edit', async () => {
    const commits = await readCommitHistory(repo.path);
    const move = commits.find((c) => c.sha === shas.move)!;
    expect(move.files).toEqual([{ status: 'R', oldPath: 'flask/app.py', path: 'src/flask/app.py' }]);
  });

  it('honours rev ranges and first-parent walks', async () => {
    const sinceMerge = await readCommitHistory(repo.path, { rev: `${shas.merge}..HEAD` });
    expect(sinceMerge.map((c) => c.sha)).toEqual([shas.move2]);
    const mainline = await readCommitHistory(repo.path, { firstParent: true, reverse: true });
    expect(mainline.map((c) => c.sha)).not.toContain(shas.pr1);
    expect(mainline[0].sha).toBe(shas.init);
  });

  it('flags bots, lockfile-only commits and merges as noise, but not real work', async () => {
    const commits = await readCommitHistory(repo.path);
    const bySha = new Map(commits.map((c) => [c.sha, c]));
    expect(noiseReason(bySha.get(shas.bot)!)).toBe('bot');
    expect(noiseReason(bySha.get(shas.lock)!)).toBe('lockfile-only');
    expect(noiseReason(bySha.get(shas.merge)!)).toBe('merge');
    expect(isNoiseCommit(bySha.get(shas.init)!)).toBe(false);
    expect(isNoiseCommit(bySha.get(shas.pr1)!)).toBe(false);
    expect(isNoiseCommit(bySha.get(shas.init)!, { maxFiles: 2 })).toBe(true);
  });

  it('groups the commits of a merged pull request into one task with all their files', async () => {
    const tasks = mergePullRequests(await readCommitHistory(repo.path));
    const pr = tasks.find((t) => t.pullRequest === 42)!;
    expect(pr.id).toBe(shas.merge);
    expect(pr.title).toBe('Add OAuth login');
    expect(pr.commits).toEqual([shas.pr1, shas.pr2]);
    expect(pr.files.map((f) => f.path).sort()).toEqual(['flask/session.py', 'src/flask/oauth.py']);
    const ids = tasks.map((t) => t.id);
    expect(ids).not.toContain(shas.pr1);
    expect(ids).not.toContain(shas.pr2);
    expect(ids).toContain(shas.mainline);
    expect(ids).toContain(shas.init);
  });

  it('names old task paths as they are at the newest commit, through rename chains', async () => {
    const atHead = pathsAtHead(await readCommitHistory(repo.path));
    expect(atHead.get(shas.init)).toEqual(['src/flask/application.py', 'flask/session.py', 'weird name\twith tab.txt']);
    expect(atHead.get(shas.move)).toEqual(['src/flask/application.py']);
  });

  it('counts a module split out of a file in that file\'s earlier changes, not its later ones', async () => {
    const split = new TestRepo();
    try {
      const commands = Array.from({ length: 30 }, (_, i) => `function command${i}(argv) { return parse(argv, ${i}); }`).join('\n');
      const helpers = Array.from({ length: 10 }, (_, i) => `function helper${i}() { return ${i}; }`).join('\n');
      const born = split.commit('Add the CLI', { 'index.js': `${commands}\n${helpers}\n`, 'README.md': '# cli\n' });
      const fix = split.commit('Fix option parsing', { 'index.js': `${commands}\n${helpers}\nfunction parse() {}\n` });
      const refactor = split.commit('Refactor commands into lib/', { 'lib/command.js': `${commands}\n`, 'index.js': `const c = require('./lib/command');\n${helpers}\nfunction parse() {}\n` });
      const later = split.commit('Document helpers', { 'index.js': `const c = require('./lib/command');\n// helpers\n${helpers}\nfunction parse() {}\n` });
      // A mirror keeps the code in its source too: a duplicate, not a split.
      const mirror = split.commit('Mirror commands for Deno', { 'deno/lib/command.js': `${commands}\n`, 'lib/command.js': `// mirrored in deno/\n${commands}\n` });
      // Old changelog entries archived: the archive does not carry on the changelog's history.
      const entries = Array.from({ length: 40 }, (_, i) => `- Fixed bug number ${i} in the parser`).join('\n');
      split.commit('Changelog', { CHANGES: `${entries}\n` });
      const archive = split.commit('Archive old changes', { 'CHANGES.old': `${entries}\n`, CHANGES: '- Unreleased\n' });
      const commits = await readCommitHistory(split.path);
      expect(commits.find((c) => c.sha === archive)!.files).toContainEqual({ status: 'A', path: 'CHANGES.old' });
      expect(commits.find((c) => c.sha === refactor)!.files).toContainEqual({ status: 'A', path: 'lib/command.js', copiedFrom: 'index.js' });
      expect(commits.find((c) => c.sha === mirror)!.files).toContainEqual({ status: 'A', path: 'deno/lib/command.js' });
      const atHead = pathsAtHead(commits);
      expect(atHead.get(born)!.sort()).toEqual(['README.md', 'index.js', 'lib/command.js']);
      expect(atHead.get(fix)!.sort()).toEqual(['index.js', 'lib/command.js']);
      expect(atHead.get(refactor)!.sort()).toEqual(['index.js', 'lib/command.js']);
      expect(atHead.get(later)).toEqual(['index.js']);
      expect(atHead.get(fix)).not.toContain('deno/lib/command.js');
    } finally {
      split.dispose();
    }
  });

  it('still reads a history whose old file contents are missing, following the renames that kept their content, and says what it could not do', async () => {
    const damaged = new TestRepo();
    try {
      const oldSession = 'SESSION_TTL = 86400\n'.repeat(20);
      const born = damaged.commit('Add session and cache', { 'session.py': oldSession, 'cache.py': 'CACHE = {}\n' });
      damaged.mv('session.py', 'auth/session.py');
      damaged.mv('cache.py', 'store/cache.py');
      // session.py moves with an edit (found by comparing contents), cache.py moves as it is.
      const moved = damaged.commit('Move modules', { 'auth/session.py': `${oldSession}SESSION_SECURE = True\n` });
      // The old content of session.py is gone, as in a partial clone or a mirror missing a blob.
      const blob = damaged.git(['rev-parse', `${born}:session.py`]).trim();
      rmSync(join(damaged.path, '.git', 'objects', blob.slice(0, 2), blob.slice(2)));
      expect(() => damaged.git(['log', '-C', '--name-status'])).toThrow(/unable to read|could not read/);

      const warnings: string[] = [];
      const commits = await readCommitHistory(damaged.path, { onWarning: (m) => warnings.push(m) });
      expect(commits.map((c) => c.sha)).toEqual([moved, born]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/missing .* only renames that kept a file's content unchanged were followed/);
      const atHead = pathsAtHead(commits);
      expect(atHead.get(born)).toContain('store/cache.py');
      expect(atHead.get(born)).not.toContain('auth/session.py');
      // Other failures are not mistaken for missing content.
      await expect(readCommitHistory(damaged.path, { rev: 'no-such-branch', onWarning: (m) => warnings.push(m) })).rejects.toThrow(/no-such-branch/);
      expect(warnings).toHaveLength(1);
    } finally {
      damaged.dispose();
    }
  });

  it('lists changes since a commit including uncommitted and untracked files', async () => {
    const scratch = new TestRepo();
    try {
      const base = scratch.commit('base', { 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c', 'gone.ts': 'g', '.gitignore': 'ignored.log\n' });
      scratch.mv('a.ts', 'lib/a.ts');
      scratch.commit('move a', { 'b.ts': 'b2' });
      scratch.rm('gone.ts');
      scratch.commit('remove gone');
      scratch.write('c.ts', 'c edited, not committed');
      scratch.write('new.ts', 'untracked');
      scratch.write('ignored.log', 'ignored');
      const changes = await changedFilesSince(scratch.path, base);
      expect(changes).toEqual([
        { status: 'M', path: 'b.ts' },
        { status: 'M', path: 'c.ts' },
        { status: 'D', path: 'gone.ts' },
        { status: 'R', oldPath: 'a.ts', path: 'lib/a.ts' },
        { status: 'A', path: 'new.ts' },
      ]);
      expect(await changedFilesSince(scratch.path, scratch.head())).toHaveLength(2);
    } finally {
      scratch.dispose();
    }
  });

  it('reports paths relative to a sub-directory when given one', async () => {
    const scratch = new TestRepo();
    try {
      const base = scratch.commit('base', { 'packages/api/a.ts': 'a', 'packages/web/b.ts': 'b' });
      scratch.write('packages/api/a.ts', 'a2');
      scratch.write('packages/api/new.ts', 'n');
      scratch.write('packages/web/b.ts', 'b2');
      const changes = await changedFilesSince(join(scratch.path, 'packages/api'), base);
      expect(changes).toEqual([
        { status: 'M', path: 'a.ts' },
        { status: 'A', path: 'new.ts' },
      ]);
    } finally {
      scratch.dispose();
    }
  });

  it('knows a repository from a plain directory and reads HEAD', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'sextant-plain-'));
    try {
      expect(await isGitRepo(repo.path)).toBe(true);
      expect(await isGitRepo(plain)).toBe(false);
      expect(await isGitRepo(join(plain, 'missing'))).toBe(false);
      expect(await headCommit(repo.path)).toBe(shas.move2);
      await expect(headCommit(plain)).rejects.toThrow(/Not a git repository/);
      const empty = new TestRepo();
      expect(await headCommit(empty.path)).toBeNull();
      empty.dispose();
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('noiseReason on commit messages', () => {
  const commit = (subject: string, paths = ['src/a.ts'], authorName = 'Ada') => ({
    parents: ['p'],
    authorName,
    authorEmail: 'ada@example.com',
    subject,
    files: paths.map((path) => ({ status: 'M' as const, path })),
  });
  it.each([
    ['v2.3.0', 'version-bump'],
    ['Release 1.4.0', 'version-bump'],
    ['chore(release): 3.1.0', 'version-bump'],
    ['Bump version to 0.9.1', 'version-bump'],
    ['Bumped v8.2.0', 'version-bump'],
    ['chore(deps): update dependency jest to v30', 'dependency-bump'],
    ['Fix typo in README', 'typo-or-formatting'],
    ['Run prettier', 'typo-or-formatting'],
    ['style: reformat', 'typo-or-formatting'],
  ])('%s -> %s', (subject, reason) => expect(noiseReason(commit(subject))).toBe(reason));

  it.each(['Fix session cookie expiry', 'Add OAuth client', 'Bump the timeout to 30s for slow CI', 'Release lock before retrying writes', 'Format dates in ISO 8601 in the API'])('keeps "%s"', (subject) => {
    // "Format dates ..." is a real change; only bare formatting subjects are noise.
    expect(noiseReason(commit(subject))).toBeNull();
  });

  it('treats changelog-only and renovate commits as noise', () => {
    expect(noiseReason(commit('Update changelog', ['CHANGELOG.md', 'yarn.lock']))).toBe('changelog-only');
    expect(noiseReason(commit('Update all', ['src/a.ts'], 'renovate[bot]'))).toBe('bot');
  });
});

describe('stripTrailers', () => {
  it('drops sign-offs and co-author blocks but keeps prose', () => {
    expect(stripTrailers('Why we did it.\n\nSigned-off-by: A <a@x>\nCo-authored-by: B <b@x>')).toBe('Why we did it.');
    expect(stripTrailers('Details.\n\nNote: keep this line')).toBe('Details.\n\nNote: keep this line');
    expect(stripTrailers('')).toBe('');
  });
});
