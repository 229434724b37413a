import request from 'supertest';
import { DataSource } from 'typeorm';
import { FusionWeightsEntity } from '../../src/modules/fusion/fusion-weights.entity';
import { WEIGHTS_CACHE_TTL_MS } from '../../src/modules/fusion/fusion-weights.service';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Several API processes can share one database: a weights version another process appends
 * must reach this process's searches within WEIGHTS_CACHE_TTL_MS, not only after a restart.
 */
describe('learned weights across processes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  it('a version written by another process is used once the cached one is older than the TTL', async () => {
    const search = async () => (await request(t.app.getHttpServer()).post('/v1/search').send({ query: 'how are refunds retried' }).expect(200)).body as { query_class: string; weights_version: number; weights: Record<string, number> };
    const first = await search();
    expect(first.query_class).toBe('conceptual');
    const workspaceId = (await t.app.get(WorkspacesService).ensureDefault()).id;
    // What another process's FusionWeightsService would write: straight to the shared table, not through this process's cache.
    const weights = { 'file.dense': 0.1, 'file.keyword': 0.1, 'file.symbol': 0.1, 'task.dense': 0.35, 'task.keyword': 0.35 };
    await t.app.get(DataSource).getRepository(FusionWeightsEntity).insert({
      id: '00000000-0000-4000-8000-00000000beef', workspaceId, queryClass: 'conceptual', version: first.weights_version + 1, weights, origin: 'feedback', pinned: false, principal: 'key:elsewhere',
    });
    expect((await search()).weights_version).toBe(first.weights_version);
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + WEIGHTS_CACHE_TTL_MS + 1);
    const later = await search();
    expect(later.weights_version).toBe(first.weights_version + 1);
    expect(later.weights).toMatchObject(weights);
  });
});
