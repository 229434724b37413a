import { hostAllowed, originPolicy, originAllowed } from './origin-policy';

const config = (host: string, allowedHosts: string[] = [], allowedOrigins: string[] = []) => ({
  http: { port: 3000, host, bodyLimit: '1mb', importBodyLimit: '32mb', corsOrigins: [], allowedHosts: [], shutdownTimeoutMs: 0 },
  mcp: { allowedHosts, allowedOrigins, bodyLimitBytes: 1024 },
});

describe('MCP host/origin policy', () => {
  it('accepts loopback hosts on any port by default and refuses other names (DNS rebinding)', () => {
    const p = originPolicy(config('127.0.0.1'));
    for (const h of ['localhost:3000', '127.0.0.1:51234', '[::1]:8080', 'LOCALHOST', '127.0.0.1']) expect(hostAllowed(h, p)).toBe(true);
    for (const h of ['evil.example:3000', 'attacker.localhost.evil.com', undefined, '']) expect(hostAllowed(h, p)).toBe(false);
  });

  it('accepts the bound address and configured hosts, by name or exact host:port', () => {
    const p = originPolicy(config('10.0.0.5', ['sextant.internal', 'proxy.corp:8443']));
    expect(hostAllowed('10.0.0.5:3000', p)).toBe(true);
    expect(hostAllowed('sextant.internal:3000', p)).toBe(true);
    expect(hostAllowed('proxy.corp:8443', p)).toBe(true);
    expect(hostAllowed('proxy.corp:9000', p)).toBe(false);
    expect(hostAllowed('anything', originPolicy(config('0.0.0.0', ['*'])))).toBe(true);
  });

  it('allows a missing Origin and loopback origins, refuses other sites unless listed', () => {
    const p = originPolicy(config('127.0.0.1', [], ['https://dash.example.com/']));
    expect(originAllowed(undefined, p)).toBe(true);
    expect(originAllowed('http://localhost:5173', p)).toBe(true);
    expect(originAllowed('http://[::1]:1234', p)).toBe(true);
    expect(originAllowed('https://dash.example.com', p)).toBe(true);
    expect(originAllowed('https://evil.example', p)).toBe(false);
    expect(originAllowed('null', p)).toBe(false);
    expect(originAllowed('not a url', p)).toBe(false);
  });
});
