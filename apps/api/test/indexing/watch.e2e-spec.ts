import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import request from 'supertest';
import { RepositoryWatcherService } from '../../src/modules/indexing/services/repository-watcher.service';
import { makeFixtureRepo, SAMPLE_PROJECT, writeFiles } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

describe('live mode (watch)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('a saved edit becomes searchable, and a burst of 1,000 writes is coalesced into one job', async () => {
    const root = makeFixtureRepo(SAMPLE_PROJECT);
    const server = request(t.app.getHttpServer());
    const reg = await server.post('/v1/repos').send({ path: root, watch: true }).expect(201);
    const repoId = reg.body.id as string;
    const workspaceId = (await server.get('/v1/workspaces')).body.workspaces[0].id as string;
    const watcher = t.app.get(RepositoryWatcherService);
    const chunks = t.app.get<ChunkIndex>(CHUNK_INDEX);
    expect(watcher.isWatching(repoId)).toBe(true);
    await waitFor(async () => (await server.get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'initial index' });

    // One saved file.
    writeFiles(root, { 'src/auth/session.ts': SAMPLE_PROJECT['src/auth/session.ts'] + '\nexport function quokkaZebraHandshake(): number {\n  return 42;\n}\n' });
    const hit = await waitFor(async () => (await chunks.searchKeyword('quokkaZebraHandshake', { workspaceId, repoIds: [repoId] }, 3))[0], { what: 'the edit to be searchable' });
    expect(hit.payload.path).toBe('src/auth/session.ts');

    // A burst like a branch switch: 1,000 files written back to back.
    const jobsBefore = watcher.stats(repoId)!.jobsStarted;
    const burst: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) burst[`gen/file${i}.ts`] = `export const burstValue${i} = ${i};\n`;
    writeFiles(root, burst);
    // Wait until every burst file is indexed (whatever the machine load), then count the jobs it took.
    await waitFor(async () => (await chunks.count({ workspaceId, repoIds: [repoId], include: ['gen/**'], chunkTypes: ['file'] })) === 1000, { what: 'all 1,000 burst files indexed', timeoutMs: 200000, intervalMs: 200 });
    await waitFor(async () => watcher.stats(repoId)!.pending === 0, { what: 'watcher idle' });
    expect(watcher.stats(repoId)!.jobsStarted - jobsBefore).toBe(1);
    expect((await chunks.searchKeyword('burstValue999', { workspaceId, repoIds: [repoId] }, 1))[0]?.payload.path).toBe('gen/file999.ts');

    // Turning watch off stops it.
    await server.patch(`/v1/repos/${repoId}`).send({ watch: false }).expect(200);
    expect(watcher.isWatching(repoId)).toBe(false);
  }, 300000);
});
