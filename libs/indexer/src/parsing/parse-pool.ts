import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { chunkFile } from '../chunking/chunk-file';
import type { ChunkFileInput, ChunkFileResult, ChunkOptions } from '../chunking/code-chunk';
import { readSourceFileSync, type ReadSourceOptions, type SourceFileLocation } from '../discovery/read-source-file';
import type { SkipReason } from '../discovery/skip-reason';
import { decodeChunkMessage } from './chunk-message';

export interface ParsePoolOptions {
  /** Worker threads (default: number of cores). */
  size?: number;
  /** Per-file budget in ms before the worker is terminated and the file falls back to line windows (default 10000). */
  timeoutMs?: number;
  /**
   * Workers start on the first file and stop after this long with nothing to parse (default
   * 30000; 0 keeps them for the pool's life). Each holds its own V8 isolate and the grammars
   * (~25 MB), which a server that mostly answers searches should not carry between index jobs.
   */
  idleMs?: number;
}

/** What the pool has done so far. */
export interface ParsePoolStats {
  ok: number;
  fallback: number;
  unsupported: number;
  timeouts: number;
  workerCrashes: number;
}

/** A file for {@link ParsePool.readAndChunk}: where it is, and what its chunks are tagged with. */
export type SourceFileToChunk = Omit<ChunkFileInput, 'text'> & SourceFileLocation;

/** What {@link ParsePool.readAndChunk} found: a file not to index, one whose content is unchanged, or its chunks. */
export type ReadChunkResult =
  | { read: 'skipped'; reason: SkipReason; detail?: string }
  | { read: 'unchanged'; contentHash: string }
  | { read: 'ok'; contentHash: string; redactions: number; result: ChunkFileResult };

/** Asks the worker to read the file itself (`ChunkFileInput.text` is then filled in from its answer). */
interface ReadRequest {
  file: SourceFileLocation;
  options: ReadSourceOptions;
  /** The content hash of the indexed version: a file whose bytes still hash to it is answered `unchanged`, not chunked. */
  unchangedHash: string | null;
}

/** A worker's answer to one file. */
interface WorkerAnswer {
  id: number;
  json?: string;
  error?: string;
  /** Set when the worker read the file: its text (redacted), hash and redaction count. */
  read?: { text: string; contentHash: string; redactions: number };
  skipped?: { reason: SkipReason; detail?: string };
  unchanged?: string;
}

interface Task {
  id: number;
  input: ChunkFileInput;
  read?: ReadRequest;
  options?: ChunkOptions;
  timeoutMs: number;
  resolve: (outcome: ReadChunkResult) => void;
}

interface Slot {
  worker: Worker;
  /** Sent to the worker, in the order it handles them; the first is the one being chunked. */
  tasks: Task[];
  /** The first task's last-resort deadline (see {@link HARD_KILL_GRACE_MS}). */
  timer: NodeJS.Timeout | null;
  /** Set to 1 when the pool closes: the worker then answers its remaining files without starting them. */
  stop: Int32Array;
  /** Called when the slot has no task left (while the pool closes). */
  onIdle?: () => void;
}

/**
 * A parse runs under tree-sitter's own timeout (the file's budget), so it ends by itself. A worker is
 * terminated only when it has not answered well after that: terminating one in the middle of a
 * native parse can abort the whole process (node-tree-sitter reads the text through a JS callback,
 * and the failed call throws a C++ exception through tree-sitter's C code).
 */
const HARD_KILL_GRACE_MS = 5_000;

/**
 * Files handed to a worker ahead of its results, so it goes straight on to the next file instead of
 * idling until the main thread answers. An index job's main thread writes a group of files in one
 * synchronous stretch of several 100 ms (~1.8 ms of parsing per file meanwhile would be lost): with
 * 2 files each the workers sat idle for most of it, and a full index used 1.3 of 2 cores.
 * bench:scale --files 20000, alternated at load 0.2-2.6: 44.6-55.6 s with 16, 36.7-39.0 s with 128
 * (and 512-file write groups, see the index job runner). Cost: a file queued behind up to 127 others
 * on its worker (a few 100 ms when a second job shares the pool).
 */
const TASKS_PER_WORKER = 128;

/**
 * Chunks files on a pool of worker threads. A file whose parse takes longer than the
 * timeout is given up by tree-sitter and comes back as line-window chunks with
 * `parse: 'fallback', error: 'timeout'`; a worker that still does not answer (twice
 * the timeout plus 5 s) is terminated and replaced. One pathological file cannot
 * stall a job. `chunk` never rejects.
 *
 * @example
 * const pool = new ParsePool({ size: 2, timeoutMs: 5000 });
 * const result = await pool.chunk({ workspaceId: 'ws', repoId: 'r', path: 'a.py', lang: 'python', text: 'def f(): pass' });
 * await pool.close();
 */
export class ParsePool {
  readonly size: number;
  readonly timeoutMs: number;
  readonly stats: ParsePoolStats = { ok: 0, fallback: 0, unsupported: 0, timeouts: 0, workerCrashes: 0 };
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  private closing: Promise<void> | null = null;
  private readonly idleMs: number;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor({ size = availableParallelism(), timeoutMs = 10_000, idleMs = 30_000 }: ParsePoolOptions = {}) {
    this.size = Math.max(1, size);
    this.timeoutMs = timeoutMs;
    this.idleMs = idleMs;
  }

  /** Worker threads running now (0 before the first file and after an idle period). */
  get liveWorkers(): number {
    return this.slots.length;
  }

  /**
   * Chunk one file off-thread. `timeoutMs` overrides the pool's budget for this call.
   */
  chunk(input: ChunkFileInput, options?: ChunkOptions, call: { timeoutMs?: number } = {}): Promise<ChunkFileResult> {
    return this.enqueue(input, undefined, options, call.timeoutMs).then((outcome) => (outcome as Extract<ReadChunkResult, { read: 'ok' }>).result);
  }

  /**
   * Reads a file on a worker (the checks, secret redaction and hash of {@link readSourceFile}) and
   * chunks it there: the calling thread only gets the answer. A file whose content still hashes to
   * `unchangedHash` is not chunked. Never rejects once the pool is open.
   *
   * @example
   * const found = await pool.readAndChunk({ workspaceId: 'ws', repoId: 'r', path: 'a.py', absPath: '/repo/a.py', lang: 'python' });
   * if (found.read === 'ok') index(found.result.chunks, found.contentHash);
   */
  readAndChunk(file: SourceFileToChunk, options?: ChunkOptions, call: { read?: ReadSourceOptions; unchangedHash?: string | null; timeoutMs?: number } = {}): Promise<ReadChunkResult> {
    const { absPath, ...tags } = file;
    return this.enqueue({ ...tags, text: '' }, { file: { path: file.path, absPath }, options: call.read ?? {}, unchangedHash: call.unchangedHash ?? null }, options, call.timeoutMs);
  }

  private enqueue(input: ChunkFileInput, read: ReadRequest | undefined, options: ChunkOptions | undefined, timeoutMs: number | undefined): Promise<ReadChunkResult> {
    if (this.closed) return Promise.reject(new Error('ParsePool is closed'));
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, input, read, options, timeoutMs: timeoutMs ?? this.timeoutMs, resolve });
      if (this.idleTimer) clearTimeout(this.idleTimer);
      this.idleTimer = null;
      while (this.slots.length < this.size) this.slots.push(this.spawn());
      this.dispatch();
    });
  }

  /** Once nothing is queued or in flight, schedules the workers' retirement after `idleMs`. */
  private scheduleIdleStop(): void {
    if (this.idleMs <= 0 || this.closed || this.idleTimer || this.queue.length || this.slots.some((s) => s.tasks.length)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.closed || this.queue.length || this.slots.some((s) => s.tasks.length)) return;
      for (const slot of this.slots.splice(0)) void this.retire(slot);
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /**
   * Ends the workers. Files not yet started resolve as fallbacks (`error: 'pool closed'`); a file a
   * worker is on is finished first (within its timeout), since killing a worker mid-parse is unsafe.
   */
  close(): Promise<void> {
    if (this.closing) return this.closing;
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const task of this.queue.splice(0)) this.finish(task, this.fallback(task, 'pool closed'));
    this.closing = Promise.all(this.slots.map((slot) => this.retire(slot))).then(() => undefined);
    return this.closing;
  }

  private async retire(slot: Slot): Promise<void> {
    Atomics.store(slot.stop, 0, 1);
    if (slot.tasks.length > 0) await new Promise<void>((resolve) => (slot.onIdle = resolve));
    if (slot.timer) clearTimeout(slot.timer);
    await slot.worker.terminate();
  }

  private spawn(): Slot {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const slot: Slot = { worker: createWorker(stop), tasks: [], timer: null, stop };
    slot.worker.on('message', (message: WorkerAnswer) => {
      const task = slot.tasks[0];
      if (!task || task.id !== message.id) return;
      this.release(slot);
      if (message.skipped) return task.resolve({ read: 'skipped', ...message.skipped });
      if (message.unchanged) return task.resolve({ read: 'unchanged', contentHash: message.unchanged });
      if (message.read) task.input.text = message.read.text;
      const result = message.json ? decodeChunkMessage(message.json, task.input) : null;
      if (!result) return this.finish(task, this.fallback(task, message.error ?? 'worker error', message.read));
      this.finish(task, { read: 'ok', contentHash: message.read?.contentHash ?? '', redactions: message.read?.redactions ?? 0, result });
    });
    slot.worker.on('error', (error) => this.replace(slot, `worker crashed: ${error.message}`));
    slot.worker.on('exit', () => {
      if (slot.tasks.length > 0) this.replace(slot, 'worker exited');
    });
    slot.worker.unref();
    return slot;
  }

  private dispatch(): void {
    // Fill every worker's first place before any second one, so a short queue is spread out.
    for (let depth = 1; depth <= TASKS_PER_WORKER; depth++) {
      for (const slot of this.slots) {
        if (this.queue.length === 0) return;
        if (slot.tasks.length >= depth) continue;
        const task = this.queue.shift()!;
        slot.tasks.push(task);
        if (slot.tasks.length === 1) this.startTimer(slot);
        const parseTimeoutMs = Math.min(task.options?.parseTimeoutMs ?? Infinity, task.timeoutMs);
        slot.worker.postMessage({ id: task.id, input: task.input, read: task.read, options: { ...task.options, parseTimeoutMs } });
      }
    }
  }

  /** The worker takes its tasks in order, so the first one's deadline starts when the one before it is done. */
  private startTimer(slot: Slot): void {
    slot.timer = setTimeout(() => this.replace(slot, 'timeout'), slot.tasks[0].timeoutMs * 2 + HARD_KILL_GRACE_MS);
  }

  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.tasks.shift();
    if (slot.tasks.length > 0) this.startTimer(slot);
    else slot.onIdle?.();
    this.dispatch();
    this.scheduleIdleStop();
  }

  private replace(slot: Slot, reason: string): void {
    const [task, ...waiting] = slot.tasks;
    if (!task) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.tasks = [];
    const old = slot.worker;
    old.removeAllListeners();
    old.on('error', () => undefined);
    void old.terminate();
    if (reason !== 'timeout') this.stats.workerCrashes++;
    if (this.closed) {
      for (const queued of waiting) this.finish(queued, this.fallback(queued, 'pool closed'));
    } else {
      // Files queued behind the one that failed were never started: they go to the next free worker.
      this.queue.unshift(...waiting);
      const index = this.slots.indexOf(slot);
      this.slots[index] = this.spawn();
    }
    this.finish(task, this.fallback(task, reason));
    slot.onIdle?.();
    this.dispatch();
    this.scheduleIdleStop();
  }

  /**
   * Line windows for a file the worker could not chunk. A file the worker was to read but did not
   * answer for (timeout, crash, pool closed) is read here, on the calling thread: that is rare.
   */
  private fallback(task: Task, reason: string, read?: WorkerAnswer['read']): ReadChunkResult {
    if (task.read && !read) {
      const found = readSourceFileSync(task.read.file, task.read.options);
      if (!found.ok) return { read: 'skipped', reason: found.reason, ...(found.detail !== undefined ? { detail: found.detail } : {}) };
      if (found.contentHash === task.read.unchangedHash) return { read: 'unchanged', contentHash: found.contentHash };
      task.input.text = found.text;
      read = found;
    }
    const result = chunkFile(task.input, { ...task.options, forceFallback: true, fallbackReason: reason });
    return { read: 'ok', contentHash: read?.contentHash ?? '', redactions: read?.redactions ?? 0, result };
  }

  private finish(task: Task, outcome: ReadChunkResult): void {
    if (outcome.read === 'ok') {
      this.stats[outcome.result.parse]++;
      if (outcome.result.error === 'timeout') this.stats.timeouts++;
    }
    task.resolve(outcome);
  }
}

/** From TypeScript sources (Jest, ts benches) the worker needs a TS loader; from dist it is plain JS. */
function createWorker(stop: Int32Array): Worker {
  const fromSource = __filename.endsWith('.ts');
  const script = path.join(__dirname, fromSource ? 'parse.worker.ts' : 'parse.worker.js');
  return new Worker(script, { workerData: { stop }, ...(fromSource ? { execArgv: ['-r', '@swc-node/register'] } : {}) });
}
