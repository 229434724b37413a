import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { ProcessLauncher } from './process-launcher';

describe('ProcessLauncher', () => {
  const launcher = new ProcessLauncher();
  afterAll(() => launcher.stop());

  const run = (file: string, args: string[], extra: { input?: string; timeout?: number } = {}) => launcher.run({ file, args, maxBuffer: 1 << 20, ...extra });

  it('returns exactly the bytes a command printed', async () => {
    const result = await run('printf', ['a\\000b\\377']);
    expect(result).toEqual({ ok: true, stdout: Buffer.from([0x61, 0, 0x62, 0xff]) });
  });

  it('keeps concurrent commands apart', async () => {
    const results = await Promise.all(Array.from({ length: 24 }, (_, i) => run('sh', ['-c', `sleep 0.0${i % 5}; echo ${i}`])));
    expect(results.map((r) => (r.ok ? r.stdout.toString().trim() : 'failed'))).toEqual(Array.from({ length: 24 }, (_, i) => String(i)));
  });

  it('reports the exit code and stderr of a failing command', async () => {
    const result = await run('sh', ['-c', 'echo nope >&2; exit 3']);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure.exitCode).toBe(3);
      expect(result.failure.stderr.toString()).toBe('nope\n');
    }
  });

  it('writes the input to stdin and passes cwd and env', async () => {
    const result = await launcher.run({ file: 'sh', args: ['-c', 'cat; pwd; echo "$ONLY"'], cwd: '/tmp', env: { ONLY: 'this', PATH: process.env.PATH }, input: 'hello\n', maxBuffer: 1 << 20 });
    expect(result.ok && result.stdout.toString()).toBe('hello\n/tmp\nthis\n');
  });

  it('kills a command that runs past its timeout', async () => {
    const t0 = Date.now();
    const result = await run('sleep', ['5'], { timeout: 200 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.failure.exitCode).toBeNull();
    expect(Date.now() - t0).toBeLessThan(4000);
  });

  it('fails the commands in flight when the launcher dies, and starts a new one for the next', async () => {
    const inFlight = run('sleep', ['5']);
    await new Promise((resolve) => setTimeout(resolve, 200));
    launcher.stop();
    const lost = await inFlight;
    expect(lost.ok).toBe(false);
    if (!lost.ok) expect(lost.failure.message).toMatch(/process launcher exited/);
    expect(await run('echo', ['again'])).toEqual({ ok: true, stdout: Buffer.from('again\n') });
  });

  it('does not keep a finished program from exiting', () => {
    const script = `require(${JSON.stringify(path.join(__dirname, 'process-launcher.ts'))}).processLauncher.run({ file: 'echo', args: ['ran'], maxBuffer: 1024 }).then((r) => process.stdout.write(r.stdout))`;
    const out = execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', script], { timeout: 20_000, encoding: 'utf8' });
    expect(out).toBe('ran\n');
  });
});
