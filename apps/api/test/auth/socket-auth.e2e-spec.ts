import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { ApiKeysRepository } from '../../src/modules/auth/api-keys.repository';
import { holdSource } from '../helpers/hold-source';
import { handshake } from '../helpers/socket-handshake';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createKey, KEYS_REQUIRED_ENV } from './auth-helpers';

describe('socket.io handshake authentication (keys required)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
  });
  afterAll(() => t.close());

  it('refuses a connection without a key, with a wrong key, a malformed key or a non-string token', async () => {
    expect(await handshake(t.url!)).toBe('unauthenticated');
    expect(await handshake(t.url!, { token: 'sxt_0badc0de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).toBe('unauthenticated');
    expect(await handshake(t.url!, { token: 'hello' })).toBe('unauthenticated');
    expect(await handshake(t.url!, { token: 42 })).toBe('unauthenticated');
  });

  it('accepts a valid key in auth.token or in an Authorization header', async () => {
    const { key } = await createKey(t, 'default', 'reader', 'socket');
    expect(await handshake(t.url!, { token: key })).toBe('connected');
    expect(await handshake(t.url!, undefined, bearer(key))).toBe('connected');
  });

  it('refuses new connections as soon as the key is revoked', async () => {
    const admin = await createKey(t, 'default', 'admin', 'socket-admin');
    const member = await createKey(t, 'default', 'member', 'socket-member');
    expect(await handshake(t.url!, { token: member.key })).toBe('connected');
    await request(t.app.getHttpServer()).delete(`/v1/keys/${member.id}`).set(bearer(admin.key)).expect(200);
    expect(await handshake(t.url!, { token: member.key })).toBe('unauthenticated');
  });
});

describe('revoking a key ends what is already open with it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: KEYS_REQUIRED_ENV, listen: true });
  });
  afterAll(() => t.close());

  /** A connected socket and a promise of what the server said before it disconnected us. */
  async function openSocket(key: string): Promise<{ socket: Socket; closed: Promise<{ revoked: string | null; reason: string }> }> {
    const socket: Socket = io(t.url!, { auth: { token: key }, transports: ['websocket'], reconnection: false });
    let revoked: string | null = null;
    socket.on('auth:revoked', (e: { message: string }) => (revoked = e.message));
    const closed = new Promise<{ revoked: string | null; reason: string }>((resolve) => socket.on('disconnect', (reason) => resolve({ revoked, reason })));
    await new Promise<void>((resolve, reject) => {
      socket.on('connect', () => resolve());
      socket.on('connect_error', reject);
    });
    return { socket, closed };
  }

  it('revoked through the API: its open sockets are told and disconnected at once; other keys stay', async () => {
    const admin = await createKey(t, 'default', 'admin', 'revoker');
    const victim = await createKey(t, 'default', 'reader', 'victim');
    const bystander = await createKey(t, 'default', 'reader', 'bystander');
    const a = await openSocket(victim.key);
    const b = await openSocket(victim.key);
    const other = await openSocket(bystander.key);
    await request(t.app.getHttpServer()).delete(`/v1/keys/${victim.id}`).set(bearer(admin.key)).expect(200);
    for (const s of [a, b]) expect(await s.closed).toEqual({ revoked: expect.stringMatching(/revoked/), reason: 'io server disconnect' });
    expect(other.socket.connected).toBe(true);
    other.socket.close();
  });

  it('revoked by another process on the same database (sextant keys revoke): closed within the re-check interval', async () => {
    const victim = await createKey(t, 'default', 'reader', 'cli-victim');
    const s = await openSocket(victim.key);
    // What the CLI does: a write to the keys table this server's process did not make.
    await t.app.get(ApiKeysRepository).revoke((await t.app.get(ApiKeysRepository).findAnyById(victim.id))!.workspaceId, victim.id, new Date());
    const started = Date.now();
    expect(await s.closed).toMatchObject({ revoked: expect.stringMatching(/revoked/) });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('an open SSE search stream of a revoked key ends with an error event', async () => {
    const admin = await createKey(t, 'default', 'admin', 'sse-revoker');
    const victim = await createKey(t, 'default', 'reader', 'sse-victim');
    const hold = holdSource(t, 'file.dense');
    try {
      const res = await fetch(`${t.url}/v1/search/stream?q=session`, { headers: bearer(victim.key) });
      expect(res.status).toBe(200);
      const body = res.text();
      await new Promise((r) => setTimeout(r, 100));
      await request(t.app.getHttpServer()).delete(`/v1/keys/${victim.id}`).set(bearer(admin.key)).expect(200);
      const text = await body;
      expect(text).toMatch(/event: error\ndata: .*revoked/);
      expect(text).not.toMatch(/event: done/);
    } finally {
      hold.release();
      hold.restore();
    }
  });
});

describe('socket.io handshake in local mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ listen: true });
  });
  afterAll(() => t.close());

  it('accepts a connection without a key but still refuses a wrong one', async () => {
    expect(await handshake(t.url!)).toBe('connected');
    expect(await handshake(t.url!, { token: 'sxt_0badc0de_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' })).toBe('unauthenticated');
  });
});
