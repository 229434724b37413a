/**
 * `GET /v1/repos/:id/file` (the dashboard's file view) and `GET /v1/tasks?path=` (the tasks
 * that touched a file): whole text of indexed files only, inside the repository, in the
 * caller's workspace, with a code-host link at the indexed commit when there is a remote.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import request from 'supertest';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { git, makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

describe('reading an indexed file and the tasks that touched it', () => {
  let t: TestApp;
  let reader: string;
  let admin: string;
  let repoId: string;
  let root: string;
  let commit: string;
  const api = () => request(t.app.getHttpServer());

  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV });
    admin = (await createKey(t, 'default', 'admin', 'ops')).key;
    reader = (await createKey(t, 'default', 'reader', 'viewer')).key;
    root = makeFixtureRepo({ ...SAMPLE_PROJECT, '.env': 'API_TOKEN=hunter2\n' }, { git: true });
    git(root, 'remote', 'add', 'origin', 'https://x-access-token:ghp_secret123@github.com/acme/sample.git');
    commit = git(root, 'rev-parse', 'HEAD').trim();
    const reg = await api().post('/v1/repos').set(bearer(admin)).send({ path: root, name: 'sample' }).expect(201);
    repoId = reg.body.id;
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(admin))).body.status === 'succeeded', { what: 'fixture indexed' });
    await api()
      .post('/v1/tasks')
      .set(bearer(admin))
      .send({
        tasks: [
          { id: 'T-1', title: 'Sessions expire too early', files: ['src/auth/session.ts'], created_at: '2024-03-04', repository_id: repoId },
          { id: 'T-2', title: 'Token check', files: ['src/auth/token.py'], created_at: '2024-04-01' },
          { id: 'T-3', title: 'Session refresh and docs', files: ['docs/guide.md', 'src/auth/session.ts'], created_at: '2024-05-01' },
          { id: 'T-4', title: 'Look-alike path', files: ['src/auth/session.tsx', 'xsrc/auth/session.ts'], created_at: '2024-06-01' },
        ],
      })
      .expect(201);
  });
  afterAll(() => t?.close());

  it('gives a reader the whole file, its language, indexed commit and a GitHub link without the remote’s credentials', async () => {
    const res = await api().get(`/v1/repos/${repoId}/file`).query({ path: 'src/auth/session.ts' }).set(bearer(reader)).expect(200);
    expect(res.body).toMatchObject({ repository_id: repoId, repository_name: 'sample', path: 'src/auth/session.ts', lang: 'typescript', content: SAMPLE_PROJECT['src/auth/session.ts'], indexed_commit: commit, changed_since_index: false });
    expect(res.body.code_host).toEqual({ kind: 'github', url: `https://github.com/acme/sample/blob/${commit}/src/auth/session.ts` });
    expect(JSON.stringify(res.body)).not.toContain('ghp_secret123');
  });

  it('reads a path written the way editors and agents write it (./, backslashes, a/../b)', async () => {
    for (const p of ['./src/auth/session.ts', 'src\\auth\\session.ts', 'src//auth/../auth/session.ts']) {
      const res = await api().get(`/v1/repos/${repoId}/file`).query({ path: p }).set(bearer(reader));
      expect([p, res.status, res.body.path]).toEqual([p, 200, 'src/auth/session.ts']);
      expect(res.body.content).toBe(SAMPLE_PROJECT['src/auth/session.ts']);
    }
  });

  it('says when the file changed on disk since it was indexed', async () => {
    fs.appendFileSync(path.join(root, 'README.md'), '\nMore.\n');
    const res = await api().get(`/v1/repos/${repoId}/file`).query({ path: 'README.md' }).set(bearer(reader)).expect(200);
    expect(res.body.changed_since_index).toBe(true);
  });

  it('refuses paths that are not indexed files: secrets, traversal, directories, unknown files', async () => {
    for (const p of ['.env', 'src/auth', 'nope.ts']) {
      const res = await api().get(`/v1/repos/${repoId}/file`).query({ path: p }).set(bearer(reader));
      expect([p, res.status]).toEqual([p, 404]);
      expect(JSON.stringify(res.body)).not.toContain('hunter2');
    }
    for (const p of ['../../etc/passwd', 'src/../../.env', '/etc/passwd', 'C:\\Windows\\win.ini']) {
      const res = await api().get(`/v1/repos/${repoId}/file`).query({ path: p }).set(bearer(reader));
      expect([p, res.status]).toEqual([p, 400]);
      expect(JSON.stringify(res.body)).toContain('not a path inside the repository');
      expect(JSON.stringify(res.body)).not.toContain('hunter2');
    }
    await api().get(`/v1/repos/${repoId}/file`).set(bearer(reader)).expect(400);
    await api().get(`/v1/repos/${repoId}/file`).query({ path: 'README.md', extra: '1' }).set(bearer(reader)).expect(400);
  });

  it('keeps files to their workspace', async () => {
    const other = (await createKey(t, 'other-team', 'admin', 'them')).key;
    await api().get(`/v1/repos/${repoId}/file`).query({ path: 'README.md' }).set(bearer(other)).expect(404);
    const tasks = await api().get('/v1/tasks').query({ path: 'src/auth/session.ts' }).set(bearer(other)).expect(200);
    expect(tasks.body.total).toBe(0);
  });

  it('lists the tasks that touched a file, newest first, exact path only', async () => {
    const res = await api().get('/v1/tasks').query({ path: 'src/auth/session.ts', repository_id: repoId, limit: 10 }).set(bearer(reader)).expect(200);
    expect(res.body.tasks.map((x: { external_id: string }) => x.external_id)).toEqual(['T-3', 'T-1']);
    expect(res.body.total).toBe(2);
    const none = await api().get('/v1/tasks').query({ path: 'src/auth/session%.ts' }).set(bearer(reader)).expect(200);
    expect(none.body.total).toBe(0);
    // The path as a Windows user or a shell completion writes it names the same file; one outside the repository is refused.
    const written = await api().get('/v1/tasks').query({ path: '.\\src\\auth\\session.ts', repository_id: repoId }).set(bearer(reader)).expect(200);
    expect(written.body.tasks.map((x: { external_id: string }) => x.external_id)).toEqual(['T-3', 'T-1']);
    const outside = await api().get('/v1/tasks').query({ path: '../../etc/passwd' }).set(bearer(reader)).expect(400);
    expect(outside.body.detail).toMatch(/not a path inside the repository/);
  });

  it('applies a source filter to similar-task search too', async () => {
    await api().post('/v1/tasks').set(bearer(admin)).send({ tasks: [{ id: 'J-9', source: 'jira', title: 'Sessions expire too early in the mobile app', files: ['src/auth/session.ts'] }] }).expect(201);
    const all = await api().get('/v1/tasks').query({ query: 'sessions expire', limit: 10 }).set(bearer(reader)).expect(200);
    expect(new Set(all.body.tasks.map((x: { source: string }) => x.source))).toEqual(new Set(['jira', 'manual']));
    const jira = await api().get('/v1/tasks').query({ query: 'sessions expire', source: 'jira', limit: 10 }).set(bearer(reader)).expect(200);
    expect(jira.body.tasks.map((x: { external_id: string }) => x.external_id)).toEqual(['J-9']);
  });
});
