import request from 'supertest';
import { makeFixtureRepo, SAMPLE_PROJECT } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';

describe('HTTP foundation (real app)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SEXTANT_BODY_LIMIT: '64kb' } });
  });
  afterAll(() => t.close());

  it('GET /health reports each dependency', async () => {
    const res = await request(t.app.getHttpServer()).get('/health').expect(200);
    expect(['healthy', 'degraded']).toContain(res.body.status);
    expect(res.body.dependencies.database).toMatchObject({ status: 'up' });
    expect(Object.keys(res.body.dependencies)).toEqual(expect.arrayContaining(['database', 'vector_store', 'embedder']));
    for (const dep of Object.values<{ status: string }>(res.body.dependencies)) expect(['up', 'down']).toContain(dep.status);
  });

  it('GET /metrics exposes the HTTP latency histogram in Prometheus format', async () => {
    await request(t.app.getHttpServer()).get('/v1/workspaces').expect(200);
    const res = await request(t.app.getHttpServer()).get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.text).toContain('# TYPE sextant_http_request_duration_seconds histogram');
    expect(res.text).toMatch(/^sextant_http_request_duration_seconds_count\{method="GET",route="\/v1\/workspaces",status_code="200"\} [1-9]/m);
  });

  it('GET /metrics has search, index job, queue and embedder metrics, every one under the sextant_ prefix', async () => {
    const http = () => request(t.app.getHttpServer());
    const root = makeFixtureRepo(SAMPLE_PROJECT, { git: true });
    const reg = await http().post('/v1/repos').send({ path: root }).expect(201);
    await waitFor(async () => (await http().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index' });
    await http().post('/v1/search').send({ query: 'SessionStore refresh', top_k: 5 }).expect(200);
    await http().post('/v1/search').send({ query: 'SessionStore refresh', top_k: 5 }).expect(200); // from the cache
    const text = (await http().get('/metrics').expect(200)).text;
    expect(text).toMatch(/^sextant_search_duration_seconds_count\{strategy="weighted",cached="false"\} [1-9]/m);
    expect(text).toMatch(/^sextant_search_duration_seconds_count\{strategy="weighted",cached="true"\} [1-9]/m);
    for (const source of ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword']) expect(text).toMatch(new RegExp(`^sextant_search_source_duration_seconds_count\\{source="${source.replace('.', '\\.')}",outcome="ok"\\} [1-9]`, 'm'));
    expect(text).toMatch(/^sextant_search_results_sum\{strategy="weighted"\} [1-9]/m);
    expect(text).toMatch(/^sextant_index_job_duration_seconds_count\{kind="full",status="succeeded"\} 1$/m);
    const indexed = Number(/^sextant_index_files_total\{outcome="indexed"\} (\d+)/m.exec(text)?.[1]);
    expect(indexed).toBe(Object.keys(SAMPLE_PROJECT).length);
    expect(text).toMatch(/^sextant_index_chunks_total [1-9]/m);
    expect(text).toMatch(/^sextant_index_queue_depth 0$/m);
    expect(text).toMatch(/^sextant_embedder_duration_seconds_count\{kind="(documents|query)"\} [1-9]/m);
    const names = [...text.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]);
    expect(names.filter((n) => !n.startsWith('sextant_'))).toEqual([]);
  });

  it('serves the OpenAPI document at /docs', async () => {
    const res = await request(t.app.getHttpServer()).get('/docs/openapi.json').expect(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(res.body.paths['/v1/workspaces'].post.requestBody).toBeDefined();
    await request(t.app.getHttpServer()).get('/docs').expect(200);
  });

  it('rejects an unknown body field with 400 naming the field, and writes nothing', async () => {
    const res = await request(t.app.getHttpServer()).post('/v1/workspaces').send({ slug: 'team-a', colour: 'blue' }).expect(400);
    expect(res.body.detail).toMatch(/colour/);
    expect(res.body.stack).toBeUndefined();
    const list = await request(t.app.getHttpServer()).get('/v1/workspaces').expect(200);
    expect(list.body.workspaces.map((w: { slug: string }) => w.slug)).not.toContain('team-a');
  });

  it('rejects an invalid value with 400 and accepts a valid body', async () => {
    await request(t.app.getHttpServer()).post('/v1/workspaces').send({ slug: 'Not Valid!' }).expect(400);
    const created = await request(t.app.getHttpServer()).post('/v1/workspaces').send({ slug: 'team-b', name: 'Team B' }).expect(201);
    expect(created.body).toMatchObject({ slug: 'team-b', name: 'Team B' });
    await request(t.app.getHttpServer()).post('/v1/workspaces').send({ slug: 'team-b' }).expect(409);
  });

  it('rejects an oversized body with 413', async () => {
    const res = await request(t.app.getHttpServer())
      .post('/v1/workspaces')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ slug: 'x', name: 'y'.repeat(100 * 1024) }))
      .expect(413);
    expect(res.body.detail).toMatch(/limit/);
  });

  it('returns a JSON 404 with a request id for unknown routes', async () => {
    const res = await request(t.app.getHttpServer()).get('/v1/nothing-here').set('x-request-id', 'abc-123').expect(404);
    expect(res.body).toMatchObject({ status: 404, code: 'not_found', request_id: 'abc-123' });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('creates the default workspace on first start', async () => {
    const res = await request(t.app.getHttpServer()).get('/v1/workspaces').expect(200);
    expect(res.body.workspaces.map((w: { slug: string }) => w.slug)).toContain('default');
  });
});
