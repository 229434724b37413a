import { isLocalMode, isLoopbackHost } from './auth-mode';

describe('local mode', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]'])('treats %s as loopback', (h) => expect(isLoopbackHost(h)).toBe(true));
  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.1.example.com', '10.0.0.1'])('treats %s as reachable from elsewhere', (h) => expect(isLoopbackHost(h)).toBe(false));

  it('is on only for a loopback host without SEXTANT_AUTH=required', () => {
    expect(isLocalMode({ http: { host: '127.0.0.1' } as never, auth: { mode: 'auto' } })).toBe(true);
    expect(isLocalMode({ http: { host: '127.0.0.1' } as never, auth: { mode: 'required' } })).toBe(false);
    expect(isLocalMode({ http: { host: '0.0.0.0' } as never, auth: { mode: 'auto' } })).toBe(false);
  });
});
