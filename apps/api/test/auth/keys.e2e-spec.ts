import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createKey, KEYS_REQUIRED_ENV } from './auth-helpers';

describe('API keys and roles (keys required)', () => {
  let t: TestApp;
  let http: ReturnType<typeof request>;
  let admin: string;
  let repoId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV });
    http = request(t.app.getHttpServer());
    admin = (await createKey(t, 'default', 'admin', 'ops')).key;
    const root = makeFixtureRepo({ 'src/a.ts': 'export const a = 1;\n' });
    const res = await http.post('/v1/repos').set(bearer(admin)).send({ path: root, index: false }).expect(201);
    repoId = res.body.id;
  });
  afterAll(() => t.close());

  it('refuses a request without a key with 401, a WWW-Authenticate header and a hint', async () => {
    const res = await http.get('/v1/repos').expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(res.body).toMatchObject({ code: 'unauthenticated', status: 401 });
    expect(res.body.detail).toMatch(/sextant keys create/);
    expect(res.body.stack).toBeUndefined();
  });

  it.each([
    ['a well-formed unknown key', () => 'sxt_0badc0de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
    ['a real prefix with a wrong secret', () => `${admin.slice(0, 13)}${'x'.repeat(40)}`],
    ['the real key with one character changed', () => `${admin.slice(0, -1)}${admin.endsWith('a') ? 'b' : 'a'}`],
    ['a malformed key', () => 'sxt_nothex!!_abc'],
    ['a GitHub token', () => 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'],
  ])('refuses %s with 401', async (_what, token) => {
    const res = await http.get('/v1/repos').set(bearer(token())).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(JSON.stringify(res.body)).not.toContain(token());
  });

  it.each([['Basic dXNlcjpwYXNz'], ['Bearer'], ['Bearer a b'], ['sxt_12345678_abc']])('refuses the Authorization header %j with 401', async (header) => {
    await http.get('/v1/repos').set('Authorization', header).expect(401);
  });

  it('lets health checks, metrics and docs through without a key', async () => {
    await http.get('/health').expect(200);
    await http.get('/metrics').expect(200);
    await http.get('/docs/openapi.json').expect(200);
  });

  it('reports who a key is', async () => {
    const reader = await createKey(t, 'default', 'reader');
    const res = await http.get('/v1/auth/me').set(bearer(reader.key)).expect(200);
    expect(res.body).toMatchObject({ role: 'reader', principal: `key:${reader.id}`, local_mode: false, workspace: { slug: 'default' } });
  });

  it('lets a reader read but not index, rate, register repositories or manage keys (403)', async () => {
    const { key } = await createKey(t, 'default', 'reader');
    await http.get('/v1/repos').set(bearer(key)).expect(200);
    await http.get(`/v1/repos/${repoId}`).set(bearer(key)).expect(200);
    await http.get('/v1/jobs').set(bearer(key)).expect(200);
    const forbidden = await http.post(`/v1/repos/${repoId}/index`).set(bearer(key)).send({}).expect(403);
    expect(forbidden.body.detail).toMatch(/member/);
    await http.post('/v1/repos').set(bearer(key)).send({ path: '/tmp' }).expect(403);
    await http.delete(`/v1/repos/${repoId}`).set(bearer(key)).expect(403);
    await http.post('/v1/keys').set(bearer(key)).send({ name: 'x', role: 'admin' }).expect(403);
    await http.get('/v1/keys').set(bearer(key)).expect(403);
    const rating = await ratingRoute(http, admin);
    if (rating) await http.post(rating).set(bearer(key)).send({}).expect(403);
    else console.warn('[partial] no rating route in the OpenAPI document yet: reader-rating check skipped');
  });

  it('lets a member index but not register repositories or manage keys', async () => {
    const { key } = await createKey(t, 'default', 'member');
    await http.post(`/v1/repos/${repoId}/index`).set(bearer(key)).send({}).expect(202);
    await http.patch(`/v1/repos/${repoId}`).set(bearer(key)).send({ watch: false }).expect(403);
    await http.post('/v1/keys').set(bearer(key)).send({ name: 'x', role: 'reader' }).expect(403);
  });

  it('creates a key over REST, shows it once, and lists keys without secrets or hashes', async () => {
    const created = await http.post('/v1/keys').set(bearer(admin)).send({ name: 'ci', role: 'member' }).expect(201);
    expect(created.body.key).toMatch(/^sxt_[0-9a-f]{8}_[0-9A-Za-z]{32,}$/);
    expect(created.body.key.startsWith(created.body.prefix)).toBe(true);
    await http.get('/v1/auth/me').set(bearer(created.body.key)).expect(200);
    const list = await http.get('/v1/keys').set(bearer(admin)).expect(200);
    const listed = JSON.stringify(list.body);
    expect(listed).not.toContain(created.body.key);
    expect(listed).not.toContain(created.body.key.slice(13));
    expect(listed).not.toContain(createHash('sha256').update(created.body.key).digest('hex'));
    expect(list.body.keys.find((k: { id: string }) => k.id === created.body.id)).toMatchObject({ name: 'ci', role: 'member', revoked_at: null });
    for (const k of list.body.keys) expect(Object.keys(k).sort()).toEqual(['created_at', 'id', 'last_used_at', 'name', 'prefix', 'revoked_at', 'role', 'workspace_id']);
  });

  it('rejects a bad role or unknown field when creating a key', async () => {
    await http.post('/v1/keys').set(bearer(admin)).send({ name: 'x', role: 'owner' }).expect(400);
    await http.post('/v1/keys').set(bearer(admin)).send({ name: 'x', role: 'reader', workspace_id: 'other' }).expect(400);
  });

  it('revocation takes effect on the very next request', async () => {
    const { key, id } = await createKey(t, 'default', 'member');
    await http.get('/v1/repos').set(bearer(key)).expect(200);
    const revoked = await http.delete(`/v1/keys/${id}`).set(bearer(admin)).expect(200);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    const res = await http.get('/v1/repos').set(bearer(key)).expect(401);
    expect(res.body.detail).toMatch(/revoked/);
  });

  it('records last use without the client doing anything', async () => {
    const { key, id } = await createKey(t, 'default', 'reader');
    await http.get('/v1/repos').set(bearer(key)).expect(200);
    const list = await http.get('/v1/keys').set(bearer(admin)).expect(200);
    const row = list.body.keys.find((k: { id: string }) => k.id === id);
    expect(Date.parse(row.last_used_at)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('keeps admins inside their workspace: other keys are invisible and cannot be revoked', async () => {
    const other = await createKey(t, 'team-b', 'admin');
    const list = await http.get('/v1/keys').set(bearer(admin)).expect(200);
    expect(list.body.keys.map((k: { id: string }) => k.id)).not.toContain(other.id);
    await http.delete(`/v1/keys/${other.id}`).set(bearer(admin)).expect(404);
    await http.get('/v1/auth/me').set(bearer(other.key)).expect(200);
    const ws = await http.get('/v1/workspaces').set(bearer(other.key)).expect(200);
    expect(ws.body.workspaces.map((w: { slug: string }) => w.slug)).toEqual(['team-b']);
  });

  it('does not let an admin key create workspaces (operators use the CLI)', async () => {
    const res = await http.post('/v1/workspaces').set(bearer(admin)).send({ slug: 'sneaky' }).expect(403);
    expect(res.body.detail).toMatch(/sextant workspaces create/);
  });

  it('stores no plaintext key: only prefix and SHA-256, anywhere in the database', async () => {
    const created = await createKey(t, 'default', 'reader', 'audit');
    const secret = created.key.slice(13);
    const ds = t.app.get(DataSource);
    const rows: Array<Record<string, unknown>> = await ds.createQueryBuilder().select('*').from('api_keys', 'k').where('k.id = :id', { id: created.id }).getRawMany();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(secret);
    expect(rows[0].hash).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(rows[0].prefix).toBe(created.key.slice(4, 12));
    if (ds.options.type !== 'postgres') {
      // The raw SQLite files (database and WAL) as well, not just what SELECT returns.
      for (const file of fs.readdirSync(t.dataDir).filter((f) => f.startsWith('sextant.sqlite'))) {
        expect(fs.readFileSync(path.join(t.dataDir, file)).includes(Buffer.from(secret))).toBe(false);
      }
    }
  });
});

describe('SEXTANT_AUTH=required on loopback', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SEXTANT_AUTH: 'required' } });
  });
  afterAll(() => t.close());

  it('needs a key even from 127.0.0.1', async () => {
    await request(t.app.getHttpServer()).get('/v1/repos').expect(401);
    const { key } = await createKey(t, 'default', 'reader');
    await request(t.app.getHttpServer()).get('/v1/repos').set(bearer(key)).expect(200);
  });
});

/** The route that records a rating, if the feedback module is present in this build. */
async function ratingRoute(http: ReturnType<typeof request>, key: string): Promise<string | undefined> {
  const doc = await http.get('/docs/openapi.json').set(bearer(key)).expect(200);
  return Object.keys(doc.body.paths).find((p) => /feedback|rating|rate/.test(p) && doc.body.paths[p].post && !p.includes('{'));
}
