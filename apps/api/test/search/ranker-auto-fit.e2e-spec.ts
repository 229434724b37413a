import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RankerStatusSchema } from '@sextant/contracts';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { runCli, spawnCli, freePort, waitForHttp } from '../helpers/spawn-cli';
import { vocabularyHistory, vocabularyProject } from '../helpers/vocabulary-history';
import { waitFor } from '../helpers/wait';

/**
 * The learned ranker is fitted without anyone asking once the history allows it: by a server's
 * first start on a git repository (its commits become past tasks), and by the standalone CLI
 * commands that grow the history or index the code it points at.
 */
const MODULES = 20;
const TASKS = 200;

/** The vocabulary project with its history as real commits, one a day, each changing the files its task touched. */
function gitProjectWithHistory(): string {
  const root = makeFixtureRepo(vocabularyProject(MODULES), { git: true, prefix: 'sextant-autofit-' });
  const day = (n: number) => new Date(Date.UTC(2023, 0, 2) + n * 86_400_000).toISOString();
  for (const [n, task] of vocabularyHistory(TASKS, MODULES).entries()) {
    for (const file of task.files) fs.appendFileSync(path.join(root, file), `# change ${n}\n`);
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'commit.gpgsign=false', 'commit', '-q', '-a', '-m', `${task.title}\n\n${task.body}`], {
      cwd: root,
      env: { ...process.env, GIT_AUTHOR_DATE: day(n), GIT_COMMITTER_DATE: day(n) },
    });
  }
  return root;
}

describe('the learned ranker fits itself when the history allows (spawned processes, SQLite)', () => {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a first start on a git repository indexes it, imports its commits as past tasks and fits the ranker from them', async () => {
    const repo = gitProjectWithHistory();
    dirs.push(repo);
    const port = await freePort();
    const child = spawnCli(['serve'], { PORT: String(port), SEXTANT_DATA_DIR: tempDir('sextant-autofit-data-'), DATABASE_URL: '', SEXTANT_REPO: repo, SEXTANT_ALLOWED_ROOTS: os.tmpdir(), LOG_LEVEL: 'info' });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitForHttp(`${url}/health`);
      // Polled while the server trains (CPU-bound): a connection it drops then is retried, a crash shows in its output below.
      const ranker = await waitFor(
        async () => {
          const res = await fetch(`${url}/v1/ranker`).catch(() => null);
          const status = res ? RankerStatusSchema.parse(await res.json()) : null;
          return status && status.state !== 'none' ? status : null;
        },
        { what: 'a fitted ranker', timeoutMs: 100_000, intervalMs: 250 },
      ).catch((err: Error) => {
        throw new Error(`${err.message}\nserver output:\n${output.slice(-4000)}`);
      });
      // Every commit is a past task, the initial one (which added every file) too.
      expect(ranker).toMatchObject({ state: 'active', history_tasks: TASKS + 1 });
      expect(output).toMatch(new RegExp(`First start: imported ${TASKS + 1} commits of ${repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as past tasks`));
      const tasks = (await (await fetch(`${url}/v1/tasks?path=src/m5/service.py&limit=50`)).json()) as { total: number; tasks: Array<{ title: string; files: string[] }> };
      expect(tasks.total).toBe(TASKS / MODULES + 1);
      // The fixture's initial commit is dated now, its history in 2023.
      expect(tasks.tasks.map((t) => t.title.replace(/ \(\d+\)$/, ''))).toEqual(['initial', ...Array(TASKS / MODULES).fill('Customers report fjord search problem')]);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 150_000);

  it('without a server, importing history or indexing fits the ranker when it is due; --no-train skips it', async () => {
    const repo = makeFixtureRepo(vocabularyProject(MODULES), { prefix: 'sextant-autofit-cli-' });
    dirs.push(repo);
    const env = { SEXTANT_DATA_DIR: tempDir('sextant-autofit-cli-data-'), DATABASE_URL: '', SEXTANT_ALLOWED_ROOTS: os.tmpdir() };
    const historyFile = path.join(tempDir('sextant-autofit-history-'), 'history.jsonl');
    fs.writeFileSync(historyFile, vocabularyHistory(TASKS, MODULES).map((t) => JSON.stringify(t)).join('\n'));
    const status = async () => RankerStatusSchema.parse(JSON.parse((await runCli(['ranker', 'status', '--json'], env)).stdout));

    // History before code: nothing is indexed yet, so no task can teach the ranker; it says why.
    const imported = await runCli(['tasks', 'import', historyFile, '--json'], env, 90_000);
    expect(imported.code).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ imported: TASKS });
    expect(imported.stderr).toMatch(/Not trained: the learned ranker needs at least 100 past tasks with 40 touching .* \(have 200 tasks, 0 usable\)/);
    expect((await status()).state).toBe('none');

    const skipped = await runCli(['index', repo, '--no-train', '--json'], env, 90_000);
    expect(skipped.code).toBe(0);
    expect(JSON.parse(skipped.stdout)).toMatchObject({ status: 'succeeded' });
    expect(skipped.stderr).not.toMatch(/Fitting the learned ranker/);
    expect((await status()).state).toBe('none');

    // Indexing again (nothing changed) finds the ranker due: the history now points at indexed files.
    const indexed = await runCli(['index', repo, '--json'], env, 120_000);
    expect(indexed.code).toBe(0);
    expect(JSON.parse(indexed.stdout)).toMatchObject({ status: 'succeeded' });
    expect(indexed.stderr).toMatch(/Fitting the learned ranker: \d+ past tasks asked as queries \(skip with --no-train\)/);
    expect(indexed.stderr).toMatch(/Learned ranker: active \(model v1/);
    expect(await status()).toMatchObject({ state: 'active', model_version: 1, history_tasks: TASKS });

    // The same history again does not grow it: no refit.
    const again = await runCli(['tasks', 'import', historyFile], env, 90_000);
    expect(again.stdout).toMatch(/Tasks: 0 imported, 200 updated/);
    expect(again.stderr).not.toMatch(/Fitting the learned ranker/);
    expect((await status()).model_version).toBe(1);
  }, 300_000);
});
