import { spawn, type ChildProcess } from 'node:child_process';
import type { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { mcpSdk } from '../../common/mcp-sdk';

export interface ProcessGroupStdioOptions {
  command: string;
  args: string[];
  /** The child's whole environment besides PATH. */
  env: Record<string, string>;
  /** PATH the child gets (the server's own, so commands resolve). */
  path?: string;
  onStderr?: (line: string) => void;
}

/**
 * MCP over a child's stdio, like the SDK's StdioClientTransport but (1) the child gets only
 * its configured env plus PATH — never HOME, USER or this server's secrets — and (2) it leads
 * its own process group (detached), so closing kills everything it started, not just it.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child?: ChildProcess;
  private readonly buffer: ReadBuffer = new (mcpSdk().ReadBuffer)();
  private closed = false;

  constructor(private readonly options: ProcessGroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: { ...(this.options.path ? { PATH: this.options.path } : {}), ...this.options.env },
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
        shell: false,
      });
      this.child = child;
      child.on('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        this.child = undefined;
        if (!this.closed) {
          this.closed = true;
          this.onclose?.();
        }
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
        } catch (err) {
          this.onerror?.(err as Error);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => this.options.onStderr?.(chunk.toString('utf8').slice(0, 2000)));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) return reject(new Error('MCP server process is not running'));
      if (stdin.write(mcpSdk().serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Ends the whole process group: SIGTERM, then SIGKILL if it is still there after a moment. */
  async close(): Promise<void> {
    const child = this.child;
    this.buffer.clear();
    if (!child?.pid) {
      if (!this.closed) {
        this.closed = true;
        this.onclose?.();
      }
      return;
    }
    const pgid = child.pid;
    const exited = new Promise<void>((r) => child.once('close', () => r()));
    killGroup(pgid, 'SIGTERM');
    const timer = setTimeout(() => killGroup(pgid, 'SIGKILL'), 1000);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2000))]);
    clearTimeout(timer);
    killGroup(pgid, 'SIGKILL');
  }
}

function killGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // Already gone.
  }
}
