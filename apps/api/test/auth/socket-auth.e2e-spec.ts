import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createKey, KEYS_REQUIRED_ENV } from './auth-helpers';

/** Resolves with 'connected' or the connect_error's data code, then closes the socket. */
function handshake(url: string, auth?: Record<string, unknown>, headers?: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const socket: Socket = io(url, { auth, extraHeaders: headers, transports: ['websocket'], reconnection: false, timeout: 5000 });
    socket.on('connect', () => {
      socket.close();
      resolve('connected');
    });
    socket.on('connect_error', (err: Error & { data?: { code?: string } }) => {
      socket.close();
      resolve(err.data?.code ?? `error:${err.message}`);
    });
  });
}

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
