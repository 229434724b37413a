import { execFile, spawn, type ChildProcess } from 'node:child_process';

/** What to run, as for `execFile` (always without a shell, stdout and stderr as bytes). */
export interface LaunchRequest {
  file: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Milliseconds before the process is killed (0 or undefined: no limit). */
  timeout?: number;
  maxBuffer: number;
  /** Text written to the process's stdin, which is then closed. */
  input?: string;
}

/** How a launched process ended when it did not exit with 0. */
export interface LaunchFailure {
  message: string;
  /** The exit code, or null when the process was killed or could not start. */
  exitCode: number | null;
  stderr: Buffer;
}

export type LaunchResult = { ok: true; stdout: Buffer } | { ok: false; failure: LaunchFailure };

/**
 * The launcher process: runs each request with `execFile` and sends back what it printed. Kept
 * as source text (run with `node -e`) so it works the same from the compiled library, from
 * TypeScript sources under a register hook and under Jest.
 */
const LAUNCHER_SOURCE = `
const { execFile } = require('node:child_process');
process.on('message', (m) => {
  const child = execFile(m.file, m.args, { env: m.env, cwd: m.cwd, timeout: m.timeout, maxBuffer: m.maxBuffer, encoding: 'buffer' }, (error, stdout, stderr) => {
    const failure = error ? { message: error.message, exitCode: typeof error.code === 'number' ? error.code : null, stderr } : null;
    if (process.connected) process.send({ id: m.id, failure, stdout });
  });
  if (m.input !== undefined) child.stdin.end(m.input);
});
process.on('disconnect', () => process.exit(0));
`;

function asBuffer(bytes: Uint8Array | undefined): Buffer {
  if (!bytes) return Buffer.alloc(0);
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Starts short-lived processes (git) through one small, long-lived launcher process.
 *
 * Why: starting a process from a Node process that holds gigabytes (the embedded store at a
 * million chunks) costs 100–400 ms, because fork() has to write-protect every page of the parent
 * before the child can exec. An index job runs several git commands, so with 200 repositories a
 * no-op re-index spent 108 s mostly forking. The launcher is itself forked once (a one-time cost of
 * that size), stays small, and forks git cheaply. When it cannot be started, commands run directly.
 */
export class ProcessLauncher {
  private child: ChildProcess | null = null;
  private readonly pending = new Map<number, (result: LaunchResult) => void>();
  private nextId = 1;
  private unavailable = false;

  run(request: LaunchRequest): Promise<LaunchResult> {
    const child = this.unavailable ? null : this.launcher();
    if (!child) return runDirectly(request);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.hold(true);
      child.send({ id, file: request.file, args: [...request.args], env: request.env, cwd: request.cwd, timeout: request.timeout ?? 0, maxBuffer: request.maxBuffer, input: request.input }, (error) => {
        if (error) this.settle(id, { ok: false, failure: { message: `could not start ${request.file}: ${error.message}`, exitCode: null, stderr: Buffer.alloc(0) } });
      });
    });
  }

  /** Stops the launcher (commands still running are reported as failed); the next `run` starts a new one. */
  stop(): void {
    this.child?.kill();
  }

  private launcher(): ChildProcess | null {
    if (this.child?.connected) return this.child;
    let child: ChildProcess;
    try {
      child = spawn(process.execPath, ['-e', LAUNCHER_SOURCE], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], serialization: 'advanced' });
    } catch {
      this.unavailable = true;
      return null;
    }
    child.on('message', (m: { id: number; failure: (Omit<LaunchFailure, 'stderr'> & { stderr?: Uint8Array }) | null; stdout?: Uint8Array }) => {
      this.settle(m.id, m.failure ? { ok: false, failure: { ...m.failure, stderr: asBuffer(m.failure.stderr) } } : { ok: true, stdout: asBuffer(m.stdout) });
    });
    const lost = (reason: string) => {
      if (this.child === child) this.child = null;
      for (const id of [...this.pending.keys()]) this.settle(id, { ok: false, failure: { message: `the process launcher ${reason}`, exitCode: null, stderr: Buffer.alloc(0) } });
    };
    child.on('exit', (code, signal) => lost(`exited (${signal ?? code})`));
    child.on('error', (error) => lost(`failed: ${error.message}`));
    this.child = child;
    this.hold(false);
    return child;
  }

  private settle(id: number, result: LaunchResult): void {
    const resolve = this.pending.get(id);
    if (!resolve) return;
    this.pending.delete(id);
    if (this.pending.size === 0) this.hold(false);
    resolve(result);
  }

  /** An idle launcher must not keep the server (or a CLI command) from exiting. */
  private hold(busy: boolean): void {
    const child = this.child as (ChildProcess & { channel?: { ref(): void; unref(): void } }) | null;
    if (!child) return;
    if (busy) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  }
}

function runDirectly(request: LaunchRequest): Promise<LaunchResult> {
  return new Promise((resolve) => {
    const child = execFile(request.file, [...request.args], { env: request.env, cwd: request.cwd, timeout: request.timeout, maxBuffer: request.maxBuffer, encoding: 'buffer' }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
      resolve({ ok: false, failure: { message: error.message, exitCode: typeof code === 'number' ? code : null, stderr } });
    });
    if (request.input !== undefined) child.stdin?.end(request.input);
  });
}

/** The launcher every git command of this process goes through. */
export const processLauncher = new ProcessLauncher();
