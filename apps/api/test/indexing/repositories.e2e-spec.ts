import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { chunkFile, discoverFiles, readSourceFile } from '@sextant/indexer';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { FileEntity } from '../../src/modules/indexing/entities/file.entity';
import { IndexJobsRepository } from '../../src/modules/indexing/repositories/index-jobs.repository';
import { makeFixtureRepo, readStoredChunks, SAMPLE_PROJECT, writeFiles } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

/** What the library alone produces for a directory: the ids a clean index must hold. */
async function expectedChunkIds(root: string, workspaceId: string, repoId: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const file of (await discoverFiles(root)).files) {
    const read = await readSourceFile(file);
    if (!read.ok) continue;
    for (const c of chunkFile({ workspaceId, repoId, path: file.path, lang: file.lang, text: read.text }).chunks) ids.add(c.id);
  }
  return ids;
}

describe('Indexing over REST (real app)', () => {
  let t: TestApp;
  let http: ReturnType<typeof request>;
  let workspaceId: string;
  beforeAll(async () => {
    // These tests poll jobs hard; rate limits have their own suite.
    t = await startTestApp({ env: { SEXTANT_RATE_LIMIT: '0' } });
    http = request(t.app.getHttpServer()) as never;
    workspaceId = (await request(t.app.getHttpServer()).get('/v1/workspaces')).body.workspaces[0].id;
  });
  afterAll(() => t.close());

  const server = () => request(t.app.getHttpServer());
  const finish = async (jobId: string) =>
    waitFor(async () => {
      const res = await server().get(`/v1/jobs/${jobId}`).expect(200);
      return ['succeeded', 'failed', 'cancelled'].includes(res.body.status) ? res.body : null;
    }, { what: `job ${jobId}` });
  const storedFor = (repoId: string) => readStoredChunks(t.dataDir).filter((c) => c.repoId === repoId);

  it('indexes a registered repository with exactly the chunks the library produces; edits and deletes touch only their file', async () => {
    const root = makeFixtureRepo(SAMPLE_PROJECT, { git: true });
    const reg = await server().post('/v1/repos').send({ path: root, name: 'sample' }).expect(201);
    expect(reg.body).toMatchObject({ name: 'sample', root_path: root, job: { status: expect.any(String) } });
    const repoId = reg.body.id as string;
    const job = await finish(reg.body.job.id);
    expect(job).toMatchObject({ status: 'succeeded', counts: { indexed: 5, failed: 0 } });

    const expected = await expectedChunkIds(root, workspaceId, repoId);
    const stored = storedFor(repoId);
    expect(new Set(stored.map((c) => c.id))).toEqual(expected);
    expect(stored.length).toBe(expected.size); // no duplicates

    const detail = await server().get(`/v1/repos/${repoId}`).expect(200);
    expect(detail.body.files).toMatchObject({ total: 5, by_language: { typescript: 1, python: 1, go: 1, markdown: 2 } });
    expect(detail.body.chunks.total).toBe(expected.size);
    expect(detail.body.chunks.by_type).toMatchObject({ file: 5, class: expect.any(Number), function: expect.any(Number), section: expect.any(Number) });
    expect(detail.body.last_indexed_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(detail.body.last_job.id).toBe(job.id);

    // Edit one file: only its chunks change.
    const before = new Map(stored.map((c) => [c.id, c.path]));
    writeFiles(root, { 'src/util/math.go': SAMPLE_PROJECT['src/util/math.go'] + '\n// Max returns the larger value.\nfunc Max(a, b int) int {\n\tif a > b {\n\t\treturn a\n\t}\n\treturn b\n}\n' });
    const reindex = await server().post(`/v1/repos/${repoId}/index`).send({}).expect(202);
    const incremental = await finish(reindex.body.id);
    expect(incremental.counts).toMatchObject({ indexed: 1, unchanged: 4, removed: 0 });
    const after = storedFor(repoId);
    const keptOthers = [...before].filter(([, p]) => p !== 'src/util/math.go').map(([id]) => id);
    expect(new Set(after.filter((c) => c.path !== 'src/util/math.go').map((c) => c.id))).toEqual(new Set(keptOthers));
    expect(after.filter((c) => c.path === 'src/util/math.go').map((c) => c.id)).not.toEqual([...before].filter(([, p]) => p === 'src/util/math.go').map(([id]) => id));
    expect(new Set(after.map((c) => c.id))).toEqual(await expectedChunkIds(root, workspaceId, repoId));

    // Delete a file: its chunks are gone, nothing else moves.
    fs.rmSync(path.join(root, 'src/auth/token.py'));
    const del = await finish((await server().post(`/v1/repos/${repoId}/index`).send({}).expect(202)).body.id);
    expect(del.counts).toMatchObject({ removed: 1, indexed: 0 });
    const afterDelete = storedFor(repoId);
    expect(afterDelete.some((c) => c.path === 'src/auth/token.py')).toBe(false);
    expect(afterDelete.length).toBe(after.filter((c) => c.path !== 'src/auth/token.py').length);

    // Keyword search sees the edit and not the deleted file.
    const chunks = t.app.get<ChunkIndex>(CHUNK_INDEX);
    const hits = await chunks.searchKeyword('Max', { workspaceId, repoIds: [repoId] }, 5, { mode: 'and' });
    expect(hits[0]?.payload.path).toBe('src/util/math.go');
    expect(await chunks.searchKeyword('validate_token', { workspaceId, repoIds: [repoId] }, 5)).toEqual([]);

    // Deleting the repository deletes its chunks.
    await server().delete(`/v1/repos/${repoId}`).expect(204);
    expect(storedFor(repoId)).toEqual([]);
    await server().get(`/v1/repos/${repoId}`).expect(404);
  });

  it('an incremental job trusts an unchanged stat instead of re-reading, and still catches a same-size edit with its mtime restored', async () => {
    const root = makeFixtureRepo({ 'a.ts': 'export const alpha = 1;\n', 'b.ts': 'export const bravo = 2;\n', 'c.py': 'charlie = 3\n' });
    // Files changed within 2 s of a job's start are "racily clean" and are always re-read; let these age.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const reg = await server().post('/v1/repos').send({ path: root }).expect(201);
    const repoId = reg.body.id as string;
    expect((await finish(reg.body.job.id)).counts).toMatchObject({ indexed: 3 });
    const rows = t.app.get(DataSource).getRepository(FileEntity);
    expect((await rows.findOneByOrFail({ repositoryId: repoId, path: 'a.ts' })).statKey).toMatch(/^\d+:/);

    // Nothing changed: nothing is read. Proof: a hash tampered with in the database survives.
    await rows.update({ repositoryId: repoId, path: 'b.ts' }, { contentHash: 'tampered' });
    const noop = await finish((await server().post(`/v1/repos/${repoId}/index`).send({}).expect(202)).body.id);
    expect(noop.counts).toMatchObject({ indexed: 0, unchanged: 3 });
    expect((await rows.findOneByOrFail({ repositoryId: repoId, path: 'b.ts' })).contentHash).toBe('tampered');

    // Same size, mtime put back (as `touch -r` or some editors do): the ctime still moved, so it is re-read.
    const file = path.join(root, 'a.ts');
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'export const omega = 1;\n');
    fs.utimesSync(file, atime, mtime);
    const edited = await finish((await server().post(`/v1/repos/${repoId}/index`).send({}).expect(202)).body.id);
    expect(edited.counts).toMatchObject({ indexed: 1, unchanged: 2 });
    const chunks = t.app.get<ChunkIndex>(CHUNK_INDEX);
    expect((await chunks.searchKeyword('omega', { workspaceId, repoIds: [repoId] }, 5))[0]?.payload.path).toBe('a.ts');

    // A full job re-reads everything.
    await finish((await server().post(`/v1/repos/${repoId}/index`).send({ kind: 'full' }).expect(202)).body.id);
    expect((await rows.findOneByOrFail({ repositoryId: repoId, path: 'b.ts' })).contentHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a file only its content shows to be unindexable (minified, binary) is counted as skipped, and progress still reaches every file', async () => {
    const root = makeFixtureRepo({
      'src/a.ts': 'export const a = 1;\n',
      'src/b.py': 'def b():\n    return 2\n',
      // Names that discovery accepts; reading shows one long line and a NUL byte.
      'data/fixture.json': `{"rows": [${Array.from({ length: 800 }, (_, i) => `"row-${i}"`).join(',')}]}`,
      'assets/blob.txt': `header\u0000${'x'.repeat(64)}`,
    });
    const reg = await server().post('/v1/repos').send({ path: root, name: 'content-skips' }).expect(201);
    const job = await finish(reg.body.job.id);
    expect(job.status).toBe('succeeded');
    expect(job.counts).toMatchObject({ discovered: 4, toIndex: 2, processed: 2, indexed: 2, failed: 0 });
    expect(job.counts.skippedByReason).toMatchObject({ minified: 1, binary: 1 });
    expect(new Set(storedFor(reg.body.id).map((c) => c.path))).toEqual(new Set(['src/a.ts', 'src/b.py']));

    // Re-indexing reads them again and skips them again, with the same accounting.
    const again = await finish((await server().post(`/v1/repos/${reg.body.id}/index`).send({}).expect(202)).body.id);
    expect(again.counts).toMatchObject({ toIndex: 0, processed: 0, unchanged: 2 });
    expect(again.counts.skippedByReason).toMatchObject({ minified: 1, binary: 1 });
  });

  it('a second index request while a job runs joins it', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`src/m${i}.ts`] = `export function fn${i}(a: number): number {\n  return a * ${i};\n}\n`;
    const root = makeFixtureRepo(files);
    const reg = await server().post('/v1/repos').send({ path: root }).expect(201);
    const again = await server().post(`/v1/repos/${reg.body.id}/index`).send({ kind: 'incremental' }).expect(202);
    expect(again.body.id).toBe(reg.body.job.id);
    await finish(reg.body.job.id);
  });

  it('a full job asked for while the previous job is still writing its final state runs, instead of joining the finished job', async () => {
    const root = makeFixtureRepo({ 'a.ts': 'export const alpha = 1;\n' });
    const reg = await server().post('/v1/repos').send({ path: root }).expect(201);
    await finish(reg.body.job.id);
    // Hold the next job's final save: the job reads `succeeded` in memory while its row still says `running`.
    const jobs = t.app.get(IndexJobsRepository);
    const save = jobs.save.bind(jobs);
    let releaseSave!: () => void;
    const saveHeld = new Promise<void>((resolve) => (releaseSave = resolve));
    let finalSaveStarted!: () => void;
    const finalSave = new Promise<void>((resolve) => (finalSaveStarted = resolve));
    const spy = jest.spyOn(jobs, 'save').mockImplementation(async (job) => {
      if (job.status === 'succeeded' && job.kind === 'incremental') {
        finalSaveStarted();
        await saveHeld;
      }
      return save(job);
    });
    try {
      const incremental = (await server().post(`/v1/repos/${reg.body.id}/index`).send({}).expect(202)).body.id as string;
      await finalSave;
      // Until its outcome is written (and searches see the new index), the job does not claim it.
      expect((await server().get(`/v1/jobs/${incremental}`).expect(200)).body.status).toBe('running');
      const fullRequest = server().post(`/v1/repos/${reg.body.id}/index`).send({ kind: 'full' }).then((res) => res);
      setTimeout(releaseSave, 50);
      const full = (await fullRequest).body;
      expect(full.id).not.toBe(incremental);
      expect(full.kind).toBe('full');
      expect((await finish(full.id)).status).toBe('succeeded');
    } finally {
      spy.mockRestore();
      releaseSave();
    }
  });

  it('clones and indexes a file:// git URL', async () => {
    const origin = makeFixtureRepo(SAMPLE_PROJECT, { git: true });
    const reg = await server().post('/v1/repos').send({ git_url: `file://${origin}` }).expect(201);
    expect(reg.body.git_url).toBe(`file://${origin}`);
    expect(reg.body.root_path.startsWith(path.join(t.dataDir, 'clones'))).toBe(true);
    const job = await finish(reg.body.job.id);
    expect(job.counts.indexed).toBe(5);
    await server().delete(`/v1/repos/${reg.body.id}`).expect(204);
    expect(fs.existsSync(reg.body.root_path)).toBe(false);
  });

  describe('refusals write nothing', () => {
    const countRepos = async () => (await server().get('/v1/repos').expect(200)).body.repositories.length;

    it('a path outside the allowed roots -> 403 naming SEXTANT_ALLOWED_ROOTS', async () => {
      const before = await countRepos();
      const res = await server().post('/v1/repos').send({ path: '/etc' }).expect(403);
      expect(res.body.detail).toMatch(/outside the allowed roots/);
      expect(res.body.detail).toMatch(/SEXTANT_ALLOWED_ROOTS/);
      expect(await countRepos()).toBe(before);
    });

    it('a symlink inside the allowed root that points outside it -> 403', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-link-'));
      fs.symlinkSync('/etc', path.join(dir, 'escape'));
      await server().post('/v1/repos').send({ path: path.join(dir, 'escape') }).expect(403);
    });

    it('a non-existent path -> 400', async () => {
      const res = await server().post('/v1/repos').send({ path: path.join(os.tmpdir(), 'does-not-exist-xyz') }).expect(400);
      expect(res.body.detail).toMatch(/does not exist/);
    });

    it('a URL that is not a git repository -> 400 and no clone left behind', async () => {
      const notGit = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-notgit-'));
      const before = await countRepos();
      const res = await server().post('/v1/repos').send({ git_url: `file://${notGit}` }).expect(400);
      expect(res.body.detail).toMatch(/Could not clone/);
      expect(await countRepos()).toBe(before);
      const clones = path.join(t.dataDir, 'clones');
      const leftovers = fs.existsSync(clones) ? fs.readdirSync(clones, { recursive: true }).filter((p) => String(p).includes('sextant-notgit')) : [];
      expect(leftovers).toEqual([]);
    });

    it('an unsupported URL scheme and a body with both path and git_url -> 400', async () => {
      await server().post('/v1/repos').send({ git_url: 'ext::sh -c touch% /tmp/pwned' }).expect(400);
      await server().post('/v1/repos').send({ path: os.tmpdir(), git_url: 'file:///x' }).expect(400);
    });
  });

  it('unknown repository and job ids -> 404', async () => {
    await server().get('/v1/repos/00000000-0000-4000-8000-000000000000').expect(404);
    await server().get('/v1/jobs/00000000-0000-4000-8000-000000000000').expect(404);
    await server().get('/v1/repos/not-a-uuid').expect(400);
  });

  it('GET /v1/jobs pages newest first with limit and cursor, and can scope to one repository', async () => {
    const all = (await server().get('/v1/jobs').query({ limit: 200 }).expect(200)).body as { jobs: Array<{ id: string; repository_id: string }>; next_cursor: string | null };
    expect(all.jobs.length).toBeGreaterThanOrEqual(3);
    expect(all.next_cursor).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await server().get('/v1/jobs').query({ limit: 1, ...(cursor ? { cursor } : {}) }).expect(200)).body as typeof all;
      expect(page.jobs.length).toBeLessThanOrEqual(1);
      seen.push(...page.jobs.map((j) => j.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.jobs.map((j) => j.id)); // every job once, in the same order
    const repo = all.jobs[0].repository_id;
    const scoped = (await server().get('/v1/jobs').query({ repository_id: repo }).expect(200)).body as typeof all;
    expect(scoped.jobs.every((j) => j.repository_id === repo)).toBe(true);
    await server().get('/v1/jobs').query({ limit: 0 }).expect(400);
    await server().get('/v1/jobs').query({ cursor: 'not-a-cursor' }).expect(400);
  });
});
