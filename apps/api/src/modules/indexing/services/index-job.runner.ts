import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { isDatabaseUnavailable } from '../../../common/database-errors';
import type { IndexProgressEvent } from '@sextant/contracts';
import {
  changedFilesSince,
  chunkIndexText,
  detectLanguage,
  discoverFiles,
  HISTORY_ONLY_REASONS,
  headCommit,
  isGitRepo,
  trackedIgnoredFiles,
  type ChunkFileResult,
  type ChunkOptions,
  type CodeChunk,
  type DiscoveredFile,
  type DiscoveryResult,
  type SkippedFile,
  type ParsePool,
  type ReadChunkResult,
} from '@sextant/indexer';
import { CHUNK_INDEX, type ChunkIndex, type ChunkPoint } from '@sextant/retrieval';
import { APP_CONFIG } from '../../../config/config.module';
import { TransactionRunner } from '../../../database/transaction-runner';
import type { AppConfig } from '../../../config/config.schema';
import type { IndexJobEntity } from '../entities/index-job.entity';
import { repositorySettings, type RepositoryEntity } from '../entities/repository.entity';
import { FilesRepository, type FileWrite } from '../repositories/files.repository';
import { IndexJobsRepository } from '../repositories/index-jobs.repository';
import { RepositoriesRepository } from '../repositories/repositories.repository';
import { CodeGraphUpdater } from './code-graph.updater';
import { realDataDir } from './repository-location';
import { IndexEvents, INDEX_EMBEDDINGS, PARSE_POOL, type IndexEmbeddings } from './indexing.tokens';
import { mapIndexJob } from './job-mapper';

const BATCH_FILES = 64;
/**
 * Batches written together (see the write loop): 512 files per commit. Each commit rewrites every
 * index page its rows touched, and symbol names land all over their indexes, so larger groups write
 * fewer pages per row (bench:scale --files 20000: 43.9-48.0 s with 4 batches, 36.7-39.0 s with 8,
 * at 128 queued files per parse worker). 16 would exceed the 1,000 paths a store delete accepts.
 */
const WRITE_GROUP_BATCHES = 8;
/** Batches being read, chunked and embedded ahead of the writer: a whole group more than it takes at a time. */
const PIPELINE_DEPTH = 2 * WRITE_GROUP_BATCHES;
const PROGRESS_INTERVAL_MS = 250;
const MAX_ERRORS_KEPT = 500;
/** Call sites are kept: the code graph resolves them to definitions. Keyword tokens come from the parse workers. */
const CHUNK_OPTIONS: ChunkOptions = { references: true, keywordTokens: true };

/** Abort reason used on process shutdown: the job is interrupted, not cancelled, and resumes on the next start. */
export const SHUTDOWN = 'shutdown';

export class JobCancelledError extends Error {
  constructor(readonly interrupted: boolean) {
    super(interrupted ? 'interrupted by shutdown' : 'cancelled');
  }
}

type ChunkOutcome = Pick<ChunkFileResult, 'chunks' | 'parse' | 'error' | 'symbols'>;

interface PreparedFile {
  write: FileWrite;
  /** null: chunking threw (counted as failed). */
  result: ChunkOutcome | null;
  failure?: string;
  /** The file is indexed from before but can no longer be read (now binary, secret, too large): drop it. */
  drop?: boolean;
}

/** A batch ready to write: its files, and the embedding of their chunks (already under way). */
interface PreparedBatch {
  files: PreparedFile[];
  chunks: CodeChunk[];
  embedding: Promise<{ vectors: Float32Array[]; hits: number; embedded: number }>;
}

/**
 * Runs one index job: discover -> parse+chunk (worker pool) -> embed (cached) -> write.
 *
 * Crash safety: before a batch's chunks are touched its file rows are marked `pending`
 * with the new hash; chunks of those paths are deleted and the new ones upserted (ids are
 * deterministic, so a replay is idempotent); only then are the rows marked `indexed`.
 * A job killed at any point leaves rows that are either indexed-with-their-chunks or
 * pending, and the resumed job re-does exactly the pending ones.
 */
@Injectable()
export class IndexJobRunner {
  private readonly logger = new Logger(IndexJobRunner.name);
  /** Jobs whose outcome is being written: a new index request must not join them. */
  private readonly finishing = new Set<string>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repos: RepositoriesRepository,
    private readonly files: FilesRepository,
    private readonly jobs: IndexJobsRepository,
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
    @Inject(INDEX_EMBEDDINGS) private readonly embeddings: IndexEmbeddings,
    @Inject(PARSE_POOL) private readonly pool: ParsePool,
    private readonly events: EventEmitter2,
    private readonly graph: CodeGraphUpdater,
    private readonly tx: TransactionRunner,
  ) {}

  async run(job: IndexJobEntity, signal: AbortSignal): Promise<IndexJobEntity> {
    const repo = await this.repos.findById(job.workspaceId, job.repositoryId);
    if (!repo) throw new Error(`repository ${job.repositoryId} no longer exists`);
    const ws = job.workspaceId;
    job.status = 'running';
    job.startedAt = job.startedAt ?? new Date();
    job.attempts += 1;
    job.error = null;
    await this.jobs.save(job);
    const emit = this.progressEmitter(job);

    try {
      // --- discover ---------------------------------------------------------------
      const runStartMs = Date.now();
      job.phase = 'discover';
      emit(true);
      const clock = phaseClock(job);
      // Watch-triggered (targeted) jobs know their paths; they skip git, which costs two processes per job.
      const commit = !job.options.paths && (await isGitRepo(repo.rootPath)) ? await headCommit(repo.rootPath).catch(() => null) : null;
      job.checkpoint = { ...job.checkpoint, commit };
      const targeted = job.options.paths ? new Set(job.options.paths) : null;
      // A targeted job only ever looks at its own paths: don't load the rows of a 10k-file repository per saved file.
      const existingRows = targeted ? await this.files.findByPaths(ws, repo.id, [...targeted]) : await this.files.listIndexState(ws, repo.id);
      const existing = new Map(existingRows.map((r) => [r.path, r]));
      const discovery = (targeted && this.statKnownPaths(repo.rootPath, targeted, existing)) || (await this.discover(repo));
      this.throwIfCancelled(signal);
      let discovered = discovery.files;
      if (targeted) discovered = discovered.filter((f) => targeted.has(f.path));
      const discoveredPaths = new Set(discovered.map((f) => f.path));
      const historyOnly = discovery.skipped.filter((f) => HISTORY_ONLY_REASONS.includes(f.reason) && (!targeted || targeted.has(f.path)));
      const historyPaths = new Set(historyOnly.map((f) => f.path));
      // A file that became history-only (say, grew too large) loses its chunks like a removed one, then comes back as a history row.
      const removed = [...existing].filter(([p, row]) => !discoveredPaths.has(p) && (!historyPaths.has(p) || row.state !== 'history') && (!targeted || targeted.has(p))).map(([p]) => p);

      const changedByGit = await this.changedPathsFromGit(job, repo, commit);
      const candidates = discovered.filter((f) => {
        const row = existing.get(f.path);
        if (job.kind === 'full' || !row || row.state !== 'indexed') return true;
        if (row.statKey !== null && row.statKey === statKeyOf(f)) return false; // untouched since it was read
        return changedByGit ? changedByGit.has(f.path) : true;
      });
      // A resumed job counts what its earlier attempts wrote from the index itself, not from
      // counters saved at some point before the interruption, so its totals equal what the index holds.
      const carried = job.attempts > 1 && job.startedAt && !targeted ? await this.carriedOver(job, repo.id, candidates, discoveredPaths) : null;
      job.counts = {
        ...job.counts,
        discovered: discovery.files.length,
        skippedByReason: discovery.skippedByReason as Record<string, number>,
        toIndex: candidates.length + (carried?.files ?? 0),
        unchanged: discovered.length - candidates.length - (carried?.files ?? 0),
        removed: removed.length,
        processed: carried?.files ?? 0,
        ...(carried ? { indexed: carried.indexed, failed: carried.failed, chunks: carried.chunks, chunksByType: carried.chunksByType } : {}),
        phaseMs: job.counts.phaseMs,
      };
      clock('discover');
      emit(true);

      // --- removed files ------------------------------------------------------------
      if (removed.length) {
        for (let i = 0; i < removed.length; i += 500) {
          const paths = removed.slice(i, i + 500);
          await this.chunks.delete({ workspaceId: ws, repoIds: [repo.id], paths });
          await this.graph.removeFiles(repo.id, paths);
          await this.files.deletePaths(ws, repo.id, paths);
        }
        clock('write');
      }
      const newlyHistoryOnly = historyOnly.filter((f) => existing.get(f.path)?.state !== 'history');
      if (newlyHistoryOnly.length) await this.files.markHistoryOnly(ws, repo.id, newlyHistoryOnly.map((f) => f.path));

      // --- parse, embed, write in pipelined batches -------------------------------------
      job.phase = 'parse';
      // Up to PIPELINE_DEPTH batches are read, chunked (worker pool) and embedded (the hash
      // embedder's worker, or the model's API) ahead while this thread writes, so neither side
      // waits for the other's slowest batch.
      // WRITE_GROUP_BATCHES batches are written together: one relational transaction and one
      // chunk-store transaction for all of them. Each commit rewrites the index pages its rows touched
      // (symbol names and graph ids land all over their indexes), so fewer, larger commits write less.
      const inFlight: Promise<PreparedBatch>[] = [];
      let queued = 0;
      const prepareNext = () => {
        if (queued >= candidates.length) return;
        const batch = this.prepareBatch(job, candidates.slice(queued, queued + BATCH_FILES), existing, runStartMs, signal);
        batch.catch(() => undefined); // awaited below; never an unhandled rejection if the job stops first
        inFlight.push(batch);
        queued += BATCH_FILES;
      };
      for (let i = 0; i < PIPELINE_DEPTH; i++) prepareNext();
      while (inFlight.length) {
        this.throwIfCancelled(signal);
        const group: PreparedBatch[] = [];
        while (group.length < WRITE_GROUP_BATCHES && inFlight.length) group.push(await inFlight.shift()!);
        clock('parse');
        this.throwIfCancelled(signal);
        for (let i = 0; i < group.length; i++) prepareNext();
        await this.writeBatches(job, repo, group, clock);
        emit();
      }

      // --- code graph: edges of changed files and their neighbourhood -------------------------
      this.throwIfCancelled(signal);
      await this.graph.resolve(ws, repo.id);
      clock('graph');

      // --- finish -----------------------------------------------------------------------
      job.phase = 'done';
      const final: FinalState = { status: 'succeeded', finishedAt: new Date() };
      await this.saveFinal(job, final);
      if (!targeted) await this.repos.update(ws, repo.id, { lastIndexedCommit: commit, lastIndexedAt: new Date() });
      this.showFinal(job, final);
      this.events.emit(IndexEvents.Done, this.event(job));
      return job;
    } catch (caught) {
      const err = signal.aborted && !(caught instanceof JobCancelledError) ? new JobCancelledError(signal.reason === SHUTDOWN) : caught;
      // Nothing can be recorded while the database is away; the caller waits for it and resumes the job.
      if (isDatabaseUnavailable(err)) throw err;
      if (err instanceof JobCancelledError && err.interrupted) {
        job.finishedAt = null;
        await this.jobs.save(job); // still `running`: resumes on the next start
      } else if (err instanceof JobCancelledError) {
        const final: FinalState = { status: 'cancelled', finishedAt: new Date() };
        await this.saveFinal(job, final);
        this.showFinal(job, final);
        this.events.emit(IndexEvents.Done, this.event(job));
      } else {
        const final: FinalState = { status: 'failed', finishedAt: new Date(), error: (err as Error).message };
        await this.saveFinal(job, final);
        this.showFinal(job, final);
        this.logger.error({ err, jobId: job.id }, 'Index job failed');
        this.events.emit(IndexEvents.Error, this.event(job));
      }
      return job;
    }
  }

  /** What earlier attempts of `job` wrote and this attempt will not redo. */
  private async carriedOver(job: IndexJobEntity, repositoryId: string, candidates: readonly DiscoveredFile[], discovered: ReadonlySet<string>): Promise<{ files: number; indexed: number; failed: number; chunks: number; chunksByType: Record<string, number> }> {
    const redo = new Set(candidates.map((f) => f.path));
    const rows = (await this.files.writtenSince(job.workspaceId, repositoryId, job.startedAt!)).filter((r) => discovered.has(r.path) && !redo.has(r.path));
    const chunksByType: Record<string, number> = {};
    let chunks = 0;
    for (const r of rows) {
      if (r.state !== 'indexed') continue;
      chunks += r.chunkCount;
      for (const [type, n] of Object.entries(r.chunkTypes ?? {})) chunksByType[type] = (chunksByType[type] ?? 0) + n;
    }
    const indexed = rows.filter((r) => r.state === 'indexed').length;
    return { files: rows.length, indexed, failed: rows.length - indexed, chunks, chunksByType };
  }

  isFinishing(jobId: string): boolean {
    return this.finishing.has(jobId);
  }

  /**
   * Writes the job's final state to its row only; {@link showFinal} then puts it on the live job
   * (what `GET /v1/jobs/:id` returns while the job runs), once the repository row is updated and
   * just before the Done event's listeners (search cache invalidation) run. So "succeeded" means
   * searches already see the new index.
   */
  private async saveFinal(job: IndexJobEntity, final: FinalState): Promise<void> {
    this.finishing.add(job.id);
    await this.jobs.save(Object.assign(Object.create(Object.getPrototypeOf(job) as object) as IndexJobEntity, job, final));
  }

  private showFinal(job: IndexJobEntity, final: FinalState): void {
    Object.assign(job, final);
    this.finishing.delete(job.id);
  }

  /**
   * Fast path for watch-triggered jobs: when every changed path is a file indexed before
   * (someone saved files), stat just those instead of walking the tree. New paths, or a
   * changed ignore file, return null so the full discovery decides what is indexable.
   */
  private statKnownPaths(root: string, paths: Set<string>, existing: Map<string, { state: string }>): { files: DiscoveredFile[]; skipped: SkippedFile[]; skippedByReason: Record<string, number> } | null {
    const files: DiscoveredFile[] = [];
    for (const p of paths) {
      // A history-only file stays one only if discovery skips it again.
      if (!existing.has(p) || existing.get(p)!.state === 'history' || /(^|\/)\.(git|sextant)ignore$/.test(p)) return null;
      const absPath = path.join(root, p);
      let stat: fs.Stats;
      try {
        stat = fs.lstatSync(absPath);
      } catch {
        continue; // deleted: handled as removed
      }
      if (!stat.isFile()) return null;
      if (stat.size > this.config.indexing.maxFileBytes) return null;
      files.push({ path: p, absPath, size: stat.size, lang: detectLanguage(p), mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs });
    }
    return { files, skipped: [], skippedByReason: {} };
  }

  /** Every indexable file of the repository, by the repository's ignore settings. */
  private async discover(repo: RepositoryEntity): Promise<DiscoveryResult> {
    const useGitignore = repositorySettings(repo).gitignore !== false;
    const trackedIgnored = useGitignore && (await isGitRepo(repo.rootPath)) ? new Set(await trackedIgnoredFiles(repo.rootPath)) : undefined;
    return discoverFiles(repo.rootPath, { maxFileBytes: this.config.indexing.maxFileBytes, useGitignore, trackedIgnored, excludeRealDirs: [realDataDir(this.config.storage.dataDir)] });
  }

  /** Paths git says changed since the last indexed commit, or null when git cannot tell. */
  private async changedPathsFromGit(job: IndexJobEntity, repo: RepositoryEntity, commit: string | null): Promise<Set<string> | null> {
    if (job.kind === 'full' || !repo.lastIndexedCommit || !commit) return null;
    try {
      const changes = await changedFilesSince(repo.rootPath, repo.lastIndexedCommit);
      return new Set(changes.map((c) => c.path));
    } catch {
      return null; // e.g. history rewritten: fall back to content hashes
    }
  }

  /** Reads, hashes and chunks a batch (in the worker pool), then starts embedding its chunks; unchanged files are dropped here. */
  private async prepareBatch(job: IndexJobEntity, batch: DiscoveredFile[], existing: Map<string, { contentHash: string | null; state: string }>, jobStartMs: number, signal: AbortSignal): Promise<PreparedBatch> {
    const read = { maxFileBytes: this.config.indexing.maxFileBytes };
    const out = await Promise.all(
      batch.map(async (file): Promise<PreparedFile | null> => {
        const row = existing.get(file.path);
        const unchangedHash = job.kind !== 'full' && row?.state === 'indexed' ? row.contentHash : null;
        let found: ReadChunkResult;
        try {
          found = await this.pool.readAndChunk({ workspaceId: job.workspaceId, repoId: job.repositoryId, path: file.path, absPath: file.absPath, lang: file.lang }, CHUNK_OPTIONS, { read, unchangedHash });
        } catch (err) {
          // The pool closed under the job (shutdown): the file was not read.
          return { write: { path: file.path, contentHash: null, size: file.size, lang: file.lang, statKey: null }, result: null, failure: (err as Error).message };
        }
        if (found.read === 'skipped') {
          job.counts.skippedByReason[found.reason] = (job.counts.skippedByReason[found.reason] ?? 0) + 1;
          // A file that became unreadable (binary, secret, too large) must lose its old chunks.
          if (row) return { write: { path: file.path, contentHash: null, size: file.size, lang: file.lang, statKey: null }, result: null, drop: true };
          // Only its content showed it is not indexable (minified, binary, ...): it leaves the job's to-do, or progress would stop short of 100 %.
          job.counts.toIndex -= 1;
          return null;
        }
        if (found.read === 'unchanged') {
          job.counts.unchanged += 1;
          job.counts.toIndex -= 1;
          return null;
        }
        return { write: { path: file.path, contentHash: found.contentHash, size: file.size, lang: file.lang, statKey: trustedStatKey(file, jobStartMs) }, result: found.result };
      }),
    );
    const files = out.filter((p): p is PreparedFile => p !== null);
    const chunks = files.flatMap((p) => (p.drop || !p.result ? [] : p.result.chunks));
    const embedding = this.embeddings.embedChunks(chunks.map((c) => ({ text: c.embedText, contentHash: c.contentHash })), signal);
    embedding.catch(() => undefined); // awaited by writeBatch; never unhandled if the job stops first
    return { files, chunks, embedding };
  }

  private async writeBatches(job: IndexJobEntity, repo: RepositoryEntity, batches: PreparedBatch[], clock: (phase: string) => void): Promise<void> {
    let prepared = batches.flatMap((b) => b.files);
    if (!prepared.length) return;
    const batchSize = prepared.length;
    const ws = job.workspaceId;
    const dropped = prepared.filter((p) => p.drop).map((p) => p.write.path);
    if (dropped.length) {
      await this.chunks.delete({ workspaceId: ws, repoIds: [repo.id], paths: dropped });
      await this.graph.removeFiles(repo.id, dropped);
      await this.files.deletePaths(ws, repo.id, dropped);
      job.counts.removed += dropped.length;
    }
    prepared = prepared.filter((p) => !p.drop);
    const ok = prepared.filter((p) => p.result);
    const failed = prepared.filter((p) => !p.result);

    job.phase = 'embed';
    const points: ChunkPoint[] = [];
    for (const batch of batches) {
      const { vectors, hits, embedded } = await batch.embedding;
      job.counts.cacheHits += hits;
      job.counts.embedded += embedded;
      batch.chunks.forEach((c, i) => points.push(toChunkPoint(c, vectors[i])));
    }
    clock('embed');

    job.phase = 'write';
    await this.files.markPending(ws, repo.id, prepared.map((p) => p.write));
    await this.chunks.delete({ workspaceId: ws, repoIds: [repo.id], paths: prepared.map((p) => p.write.path) });
    await this.chunks.upsert(points);
    await this.tx.run(async (m) => {
      await this.graph.writeFiles(ws, repo.id, prepared.map((p) => ({ path: p.write.path, lang: p.write.lang, result: p.result })), m);
      await this.files.markIndexed(
        ws,
        repo.id,
        ok.map((p) => {
          const chunkTypes: Record<string, number> = {};
          for (const c of p.result!.chunks) chunkTypes[c.chunkType] = (chunkTypes[c.chunkType] ?? 0) + 1;
          return { ...p.write, chunkCount: p.result!.chunks.length, chunkTypes, error: p.result!.parse === 'fallback' ? (p.result!.error ?? 'parse failed; line windows used') : null };
        }),
        m,
      );
      if (failed.length) await this.files.markFailed(ws, repo.id, failed.map((f) => ({ path: f.write.path, message: f.failure ?? 'failed' })), m);
    });

    for (const p of ok) {
      const r = p.result!;
      if (r.parse === 'fallback') {
        job.counts.parseFallbacks += 1;
        if (job.errors.length < MAX_ERRORS_KEPT) job.errors.push({ path: p.write.path, message: `parse failed (${r.error ?? 'error'}); indexed as line windows` });
      }
      for (const c of r.chunks) job.counts.chunksByType[c.chunkType] = (job.counts.chunksByType[c.chunkType] ?? 0) + 1;
      job.counts.chunks += r.chunks.length;
      job.counts.indexed += 1;
    }
    for (const f of failed) {
      job.counts.failed += 1;
      if (job.errors.length < MAX_ERRORS_KEPT) job.errors.push({ path: f.write.path, message: f.failure ?? 'failed' });
    }
    job.counts.processed += batchSize;
    job.checkpoint = { ...job.checkpoint, completed: (job.checkpoint.completed ?? 0) + batchSize };
    job.phase = 'parse';
    clock('write');
    await this.jobs.save(job);
  }

  private throwIfCancelled(signal: AbortSignal): void {
    if (signal.aborted) throw new JobCancelledError(signal.reason === SHUTDOWN);
  }

  private event(job: IndexJobEntity): IndexProgressEvent {
    return { workspace_id: job.workspaceId, repository_id: job.repositoryId, job: mapIndexJob(job) };
  }

  /** At most one progress event per interval per job (plus forced ones at phase changes). */
  private progressEmitter(job: IndexJobEntity) {
    let last = 0;
    return (force = false) => {
      const now = Date.now();
      if (!force && now - last < PROGRESS_INTERVAL_MS) return;
      last = now;
      this.events.emit(IndexEvents.Progress, this.event(job));
    };
  }
}

/** What a file's stat said when it was read; an incremental job trusts an unchanged key instead of re-reading the file. */
export function statKeyOf(file: Pick<DiscoveredFile, 'size' | 'mtimeMs' | 'ctimeMs'>): string {
  return `${file.size}:${file.mtimeMs}:${file.ctimeMs}`;
}

/** File systems with coarse timestamps (1-2 s) can hide a write made in the same tick as our stat. */
const RACY_WINDOW_MS = 2000;

/** What a finished job's row gets. */
type FinalState = Pick<IndexJobEntity, 'status' | 'finishedAt'> & Partial<Pick<IndexJobEntity, 'error'>>;

/**
 * The stat key to remember for a file read by a job that started at `jobStartMs`, or null when the
 * file changed so shortly before that a later write could keep the same timestamps ("racily clean",
 * as git calls it): such a file is read and hashed again next time.
 */
function trustedStatKey(file: DiscoveredFile, jobStartMs: number): string | null {
  return Math.max(file.mtimeMs, file.ctimeMs) < jobStartMs - RACY_WINDOW_MS ? statKeyOf(file) : null;
}

/** Adds the wall time since the previous call to `job.counts.phaseMs[phase]` (resumed jobs keep adding). */
function phaseClock(job: IndexJobEntity): (phase: string) => void {
  let last = performance.now();
  return (phase) => {
    const now = performance.now();
    const phaseMs = (job.counts.phaseMs ??= {});
    phaseMs[phase] = Math.round(((phaseMs[phase] ?? 0) + now - last) * 10) / 10;
    last = now;
  };
}

/**
 * Chunk -> index point: payload mirrors seed 004's metadata fields. `tokens` (the tokenizer's
 * output for `text`, computed on a parse worker) spares the embedded store tokenizing on this thread.
 */
export function toChunkPoint(c: CodeChunk, vector: Float32Array): ChunkPoint & { tokens?: string } {
  return {
    id: c.id,
    vector,
    // Only a store that tokenizes for itself (Qdrant) reads it; the embedded store takes `tokens`.
    get text() {
      return chunkIndexText(c);
    },
    ...(c.keywordTokens !== undefined ? { tokens: c.keywordTokens } : {}),
    payload: {
      workspaceId: c.workspaceId,
      repoId: c.repoId,
      path: c.path,
      lang: c.lang,
      chunkType: c.chunkType,
      name: c.name,
      symbol: c.symbol,
      symbols: c.symbol ? [c.symbol] : [],
      parentId: c.parentId,
      signature: c.signature,
      startLine: c.startLine,
      endLine: c.endLine,
      startByte: c.startByte,
      endByte: c.endByte,
      contentHash: c.contentHash,
      content: c.content,
    },
  };
}
