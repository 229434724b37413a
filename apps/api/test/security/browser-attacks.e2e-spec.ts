import request from 'supertest';
import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { handshake } from '../helpers/socket-handshake';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Local mode (loopback, no key needed) is an admin session for anything that can make this
 * machine's browser send a request: other web pages (form posts, fetch, WebSockets) and
 * DNS-rebound names. None of those may act; the local CLI, agents and the dashboard still can.
 */
describe('web pages cannot use local mode through the browser', () => {
  let t: TestApp;
  const api = () => request(t.app.getHttpServer());
  const keyCount = async () => (await t.app.get(ApiKeysService).listAll()).length;

  beforeAll(async () => {
    t = await startTestApp({ listen: true });
  });
  afterAll(() => t.close());

  it('DNS rebinding: a request naming another Host is refused (403) on REST, SSE and MCP', async () => {
    const res = await api().get('/v1/repos').set('Host', 'attacker.example').expect(403);
    expect(res.body.detail).toMatch(/Host "attacker\.example" is not allowed.*SEXTANT_ALLOWED_HOSTS/);
    await api().get('/v1/search/stream').query({ q: 'session' }).set('Host', 'attacker.example:3000').expect(403);
    await api().post('/mcp').set('Host', 'attacker.example').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(403);
    await api().get('/v1/repos').set('Host', 'localhost:3000').expect(200);
  });

  it('a cross-site form post cannot create a key, workspace, repository or task (403), nor can a same-site one without JSON (415)', async () => {
    const before = await keyCount();
    const evil = 'http://evil.example';
    const attempts: Array<[string, string]> = [
      ['/v1/keys', 'name=pwned&role=admin'],
      ['/v1/workspaces', 'slug=pwned'],
      ['/v1/repos', 'path=/etc'],
      ['/v1/tasks', 'id=1&title=pwned'],
    ];
    for (const [route, form] of attempts) {
      const crossSite = await api().post(route).set('Origin', evil).type('form').send(form);
      expect({ route, status: crossSite.status }).toEqual({ route, status: 403 });
      expect(crossSite.body.detail).toMatch(/Cross-origin POST from "http:\/\/evil\.example" refused/);
      // A form from a page that sent no Origin (or a loopback one) is still not JSON.
      const noJson = await api().post(route).type('form').send(form);
      expect({ route, status: noJson.status }).toEqual({ route, status: 415 });
    }
    // text/plain is the other preflight-free type a page can send; JSON inside does not help.
    const plain = await api().post('/v1/keys').set('Content-Type', 'text/plain').send(JSON.stringify({ name: 'pwned', role: 'admin' }));
    expect(plain.status).toBe(415);
    expect(plain.body.detail).toMatch(/must be JSON/);
    // Even a JSON fetch from another site (it would need CORS, but no-cors requests still arrive) is refused.
    await api().post('/v1/keys').set('Origin', evil).send({ name: 'pwned', role: 'admin' }).expect(403);
    await api().delete('/v1/keys/00000000-0000-4000-8000-000000000000').set('Origin', evil).expect(403);
    // MCP answers in JSON-RPC's shape but refuses the same way.
    await api().post('/mcp').set('Origin', evil).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(403);
    const mcpForm = await api().post('/mcp').set('Accept', 'application/json, text/event-stream').type('form').send('jsonrpc=2.0&method=tools/list');
    expect(mcpForm.status).toBe(415);
    expect(await keyCount()).toBe(before);
  });

  it('the dashboard (same origin), loopback pages and non-browser clients still work', async () => {
    await api().post('/v1/workspaces').set('Origin', t.url!).send({ slug: 'from-dashboard' }).expect(201);
    await api().post('/v1/workspaces').set('Origin', 'http://localhost:5173').send({ slug: 'from-vite-dev' }).expect(201);
    await api().post('/v1/workspaces').send({ slug: 'from-cli' }).expect(201);
    await api().post('/v1/ranker/train').expect((res) => expect(res.status).not.toBe(415)); // no body: nothing to check
  });

  it('socket.io: a cross-site page or a rebound Host cannot open a socket; loopback and same-origin pages can', async () => {
    expect(await handshake(t.url!, undefined, { Origin: 'http://evil.example' })).toBe('forbidden');
    expect(await handshake(t.url!, undefined, { Host: 'attacker.example' })).toBe('forbidden');
    expect(await handshake(t.url!, undefined, { Origin: t.url! })).toBe('connected');
    expect(await handshake(t.url!, undefined, {})).toBe('connected');
  });

  it('behind a reverse proxy (X-Forwarded-For / Forwarded) local mode grants nothing: a key is needed', async () => {
    const res = await api().get('/v1/repos').set('X-Forwarded-For', '203.0.113.7').expect(401);
    expect(res.body.detail).toMatch(/proxy.*local mode does not apply/);
    await api().get('/v1/repos').set('Forwarded', 'for=203.0.113.7').expect(401);
    expect(await handshake(t.url!, undefined, { 'X-Forwarded-For': '203.0.113.7' })).toBe('unauthenticated');
    const { key } = await createKey(t, 'default', 'reader', 'proxied');
    await api().get('/v1/repos').set('X-Forwarded-For', '203.0.113.7').set(bearer(key)).expect(200);
  });
});

describe('with keys required, Host is checked only when the operator lists hosts', () => {
  it('any Host is served without SEXTANT_ALLOWED_HOSTS; only the listed ones with it', async () => {
    const open = await startTestApp({ env: KEYS_REQUIRED_ENV });
    try {
      const { key } = await createKey(open, 'default', 'reader', 'k');
      await request(open.app.getHttpServer()).get('/v1/repos').set('Host', 'sextant.example.com').set(bearer(key)).expect(200);
    } finally {
      await open.close();
    }
    const listed = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_ALLOWED_HOSTS: 'sextant.example.com' } });
    try {
      const { key } = await createKey(listed, 'default', 'reader', 'k');
      await request(listed.app.getHttpServer()).get('/v1/repos').set('Host', 'sextant.example.com:443').set(bearer(key)).expect(200);
      await request(listed.app.getHttpServer()).get('/v1/repos').set('Host', 'other.example.com').set(bearer(key)).expect(403);
    } finally {
      await listed.close();
    }
  });
});
