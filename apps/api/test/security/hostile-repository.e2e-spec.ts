import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import { git, makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/**
 * A repository whose own git config tries to run commands on the indexing server: an
 * fsmonitor hook (runs on any work-tree scan), a clean filter on a tracked file (runs
 * when git compares work-tree content), a textconv driver, a pager and an external diff.
 * Each would `touch` a marker file.
 */
function hostileRepo(markerDir: string, nested = false): string {
  const root = makeFixtureRepo({ 'src/app.ts': 'export const answer = 42;\n', 'src/data.txt': 'rows\n', '.gitattributes': 'src/data.txt filter=evil diff=evil\n' }, { git: true, prefix: 'sextant-hostile-' });
  const evil = (name: string) => `touch ${path.join(markerDir, name)}; false`;
  git(root, 'config', 'core.fsmonitor', evil('fsmonitor'));
  git(root, 'config', 'filter.evil.clean', `touch ${path.join(markerDir, 'filter')}; cat`);
  git(root, 'config', 'filter.evil.smudge', `touch ${path.join(markerDir, 'smudge')}; cat`);
  git(root, 'config', 'diff.evil.textconv', evil('textconv'));
  git(root, 'config', 'diff.external', evil('extdiff'));
  git(root, 'config', 'core.pager', evil('pager'));
  git(root, 'config', 'core.hooksPath', markerDir);
  if (!nested) return root;
  // The same .git copied into a sub-folder of a tree, pointing its work tree one level up.
  const tree = makeFixtureRepo({ 'vendor/README.md': '# vendored\n' }, { prefix: 'sextant-hostile-tree-' });
  fs.cpSync(path.join(root, '.git'), path.join(tree, 'vendor', '.git'), { recursive: true });
  git(path.join(tree, 'vendor'), 'config', 'core.worktree', '..');
  return path.join(tree, 'vendor');
}

describe('a hostile repository cannot run code through git (real git, real app)', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());
  const markers = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-markers-'));
  const markerFiles = () => fs.readdirSync(markers);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(markers, { recursive: true, force: true });
  });

  it('the repository really is hostile: plain git runs its commands', () => {
    const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-probe-'));
    const root = hostileRepo(probe);
    fs.appendFileSync(path.join(root, 'src/data.txt'), 'more\n');
    try {
      git(root, 'status', '--short');
    } catch {
      // fsmonitor hook exits non-zero; git carries on
    }
    expect(fs.readdirSync(probe)).toContain('fsmonitor');
    fs.rmSync(probe, { recursive: true, force: true });
  });

  for (const nested of [false, true]) {
    it(`full index, incremental index and git history import leave no marker${nested ? ' (nested .git with core.worktree ..)' : ''}`, async () => {
      const root = hostileRepo(markers, nested);
      const reg = await api().post('/v1/repos').send({ path: root }).expect(201);
      await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'full index' });
      // Touch tracked files so the incremental run diffs the work tree (fsmonitor, clean filter, textconv territory).
      fs.appendFileSync(path.join(root, nested ? 'README.md' : 'src/data.txt'), 'changed\n');
      fs.writeFileSync(path.join(root, nested ? 'new.ts' : 'src/new.ts'), 'export const x = 1;\n');
      const job = await api().post(`/v1/repos/${reg.body.id}/index`).send({ kind: 'incremental' }).expect(202);
      await waitFor(async () => ['succeeded', 'failed'].includes((await api().get(`/v1/jobs/${job.body.id}`)).body.status), { what: 'incremental index' });
      await api().post('/v1/tasks/import-git').send({ repository_id: reg.body.id }).expect((res) => expect([200, 201, 400]).toContain(res.status));
      expect(markerFiles()).toEqual([]);
    });
  }

  it('the data directory (and clones in it) cannot be registered as a repository', async () => {
    const res = await api().post('/v1/repos').send({ path: t.dataDir }).expect(403);
    expect(res.body.detail).toMatch(/data directory/);
    fs.mkdirSync(path.join(t.dataDir, 'clones', 'x'), { recursive: true });
    await api().post('/v1/repos').send({ path: path.join(t.dataDir, 'clones', 'x') }).expect(403);
  });
});
