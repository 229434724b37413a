import type { Counter, Gauge, Histogram } from 'prom-client';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IndexJob, IndexJobKind, ListJobsQuery, RegisterRepositoryRequest, Repository, RepositoryDetail } from '@sextant/contracts';
import { isSecretFileName } from '@sextant/indexer';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.schema';
import { isDatabaseUnavailable } from '../../../common/database-errors';
import { DomainError, DomainErrorCode, notFound } from '../../../common/domain-error';
import { decodePageCursor, pageFromRows } from '../../../common/page-cursor';
import type { IndexJobEntity } from '../entities/index-job.entity';
import type { RepositoryEntity, RepositorySettings } from '../entities/repository.entity';
import { MetricsService } from '../../metrics/metrics.service';
import { FilesRepository } from '../repositories/files.repository';
import { IndexJobsRepository } from '../repositories/index-jobs.repository';
import { RepositoriesRepository } from '../repositories/repositories.repository';
import { IndexJobRunner, SHUTDOWN } from './index-job.runner';
import { mapIndexJob } from './job-mapper';
import { checkNetworkTarget, parseCloneTarget } from './clone-target';
import { cloneRepository, defaultRepositoryName, isWithin, realDataDir, resolveAllowedPath, validateGitUrl, type CloneOptions } from './repository-location';

export const mapRepository = (r: RepositoryEntity): Repository => ({
  id: r.id,
  name: r.name,
  root_path: r.rootPath,
  git_url: r.gitUrl,
  watch: r.watch,
  last_indexed_commit: r.lastIndexedCommit,
  last_indexed_at: r.lastIndexedAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
});

interface RunningJob {
  job: IndexJobEntity;
  controller: AbortController;
  done: Promise<IndexJobEntity>;
}

/** How often a job paused by a database outage checks whether the database is back. */
const DATABASE_RETRY_MS = 1000;

/**
 * Use cases of the Indexing module: repositories and their index jobs. Jobs run one at a
 * time in this process (parsing already uses every core); a second request for a
 * repository with a queued or running job joins it instead of starting another.
 */
@Injectable()
export class IndexingService {
  private readonly logger = new Logger(IndexingService.name);
  private readonly running = new Map<string, RunningJob>();
  private queue: Promise<unknown> = Promise.resolve();
  private shuttingDown = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repos: RepositoriesRepository,
    private readonly files: FilesRepository,
    private readonly jobs: IndexJobsRepository,
    private readonly runner: IndexJobRunner,
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
    metrics: MetricsService,
  ) {
    this.jobDuration = metrics.histogram('index_job_duration_seconds', 'Index job wall time by kind and final status', ['kind', 'status'], [0.1, 0.5, 1, 5, 15, 60, 300, 1800, 7200]);
    this.jobFiles = metrics.counter('index_files_total', 'Files index jobs indexed or failed', ['outcome']);
    this.jobChunks = metrics.counter('index_chunks_total', 'Chunks index jobs wrote');
    this.queueDepth = metrics.gauge('index_queue_depth', 'Index jobs queued or running in this process');
  }

  private readonly jobDuration: Histogram<'kind' | 'status'>;
  private readonly jobFiles: Counter<'outcome'>;
  private readonly jobChunks: Counter<string>;
  private readonly queueDepth: Gauge<string>;

  // --- repositories ----------------------------------------------------------------------

  /** Registers a repository; `settings` are set by Sextant itself (the evaluation corpus), not by API callers. */
  async register(workspaceId: string, req: RegisterRepositoryRequest, settings: RepositorySettings = {}): Promise<Repository> {
    let rootPath: string;
    let gitUrl: string | null = null;
    let name = req.name;
    let pin: CloneOptions['pin'];
    if (req.path) {
      rootPath = await this.checkLocalRoot(workspaceId, req.path);
      name ??= defaultRepositoryName(rootPath);
    } else {
      gitUrl = validateGitUrl(req.git_url!);
      const target = parseCloneTarget(gitUrl);
      if (target.kind === 'file') {
        // file:// reads this machine: the same rules as a local path.
        const local = await this.checkLocalRoot(workspaceId, target.path);
        gitUrl = pathToFileURL(local).href;
      } else {
        const address = await checkNetworkTarget(target, this.config.indexing.cloneAllowedHosts);
        if (address && (target.protocol === 'https' || target.protocol === 'http')) pin = { host: target.host, port: target.port, address };
      }
      name ??= defaultRepositoryName(gitUrl);
      rootPath = path.join(this.config.storage.dataDir, 'clones', workspaceId, `${defaultRepositoryName(gitUrl)}-${Date.now().toString(36)}`);
    }
    name = await this.uniqueName(workspaceId, name);
    if (gitUrl) await cloneRepository(gitUrl, rootPath, { pin, isForbidden: isSecretFileName });
    try {
      const row = await this.repos.create(workspaceId, { name, rootPath, gitUrl, watch: req.watch ?? false, settings: { ...settings } });
      return mapRepository(row);
    } catch (err) {
      if (gitUrl) fs.rmSync(rootPath, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * A local directory a workspace may register: under the allowed roots, not the data
   * directory (clones included) nor a folder inside it, not registered in this workspace,
   * and not another workspace's unless SEXTANT_ALLOW_SHARED_PATHS says directories may be shared
   * (clones in the data directory do not count: no repository's discovery enters it).
   */
  private async checkLocalRoot(workspaceId: string, input: string): Promise<string> {
    const rootPath = resolveAllowedPath(input, this.config.indexing.allowedRoots);
    // A folder holding the data directory (a checkout with its `./data`) may be indexed: discovery
    // and the watcher never enter the data directory. The data directory and clones in it may not.
    const dataDir = realDataDir(this.config.storage.dataDir);
    if (isWithin(rootPath, dataDir)) {
      throw new DomainError(DomainErrorCode.PathNotAllowed, `${input} is (or lies inside) Sextant's data directory; it cannot be indexed`, { path: input });
    }
    const same = await this.repos.findByRoot(workspaceId, rootPath);
    if (same) throw new DomainError(DomainErrorCode.Conflict, `${rootPath} is already registered as "${same.name}"`, { repository_id: same.id });
    if (!this.config.indexing.allowSharedPaths) {
      const other = (await this.repos.listAllRoots()).find((r) => r.workspaceId !== workspaceId && !isWithin(r.rootPath, dataDir) && (isWithin(rootPath, r.rootPath) || isWithin(r.rootPath, rootPath)));
      if (other) {
        throw new DomainError(DomainErrorCode.Conflict, `${input} overlaps a directory another workspace has registered; an operator can allow shared directories with SEXTANT_ALLOW_SHARED_PATHS=true`, { path: input });
      }
    }
    return rootPath;
  }

  async list(workspaceId: string): Promise<Repository[]> {
    return (await this.repos.list(workspaceId)).map(mapRepository);
  }

  async get(workspaceId: string, id: string): Promise<RepositoryDetail> {
    const repo = await this.requireRepo(workspaceId, id);
    const stats = await this.files.stats(workspaceId, id);
    const last = await this.jobs.latest(workspaceId, id);
    return {
      ...mapRepository(repo),
      files: { total: stats.total, by_language: stats.byLanguage, by_state: stats.byState },
      chunks: { total: stats.chunks, by_type: stats.chunksByType, by_language: stats.chunksByLanguage },
      last_job: last ? mapIndexJob(this.running.get(id)?.job ?? last) : null,
    };
  }

  async setWatch(workspaceId: string, id: string, watch: boolean): Promise<Repository> {
    await this.requireRepo(workspaceId, id);
    await this.repos.update(workspaceId, id, { watch });
    return mapRepository((await this.repos.findById(workspaceId, id))!);
  }

  /** Deletes the repository, its files and jobs, and every chunk it had in the index. */
  async remove(workspaceId: string, id: string): Promise<void> {
    const repo = await this.requireRepo(workspaceId, id);
    const active = this.running.get(id);
    if (active) {
      active.controller.abort();
      await active.done.catch(() => undefined);
    }
    await this.chunks.delete({ workspaceId, repoIds: [id] });
    await this.repos.delete(workspaceId, id);
    if (repo.gitUrl && repo.rootPath.startsWith(path.join(this.config.storage.dataDir, 'clones'))) fs.rmSync(repo.rootPath, { recursive: true, force: true });
  }

  async findByRoot(workspaceId: string, rootPath: string): Promise<Repository | null> {
    const row = await this.repos.findByRoot(workspaceId, fs.existsSync(rootPath) ? fs.realpathSync(rootPath) : rootPath);
    return row ? mapRepository(row) : null;
  }

  async countRepositories(): Promise<number> {
    return this.repos.countAll();
  }

  // --- jobs --------------------------------------------------------------------------------

  /** Starts (or joins) the repository's index job. */
  async startJob(workspaceId: string, repositoryId: string, kind: IndexJobKind = 'incremental', paths?: string[]): Promise<IndexJob> {
    return (await this.startOrJoin(workspaceId, repositoryId, kind, paths)).job;
  }

  /** Like startJob, and says whether an already active job was joined (its scope may not cover `paths`). */
  async startOrJoin(workspaceId: string, repositoryId: string, kind: IndexJobKind = 'incremental', paths?: string[]): Promise<{ job: IndexJob; joined: boolean }> {
    await this.requireRepo(workspaceId, repositoryId);
    const active = this.running.get(repositoryId) ?? null;
    const joinable = active && (active.job.status === 'queued' || active.job.status === 'running') && !this.runner.isFinishing(active.job.id);
    if (active && joinable) return { job: mapIndexJob(active.job), joined: true };
    // A job that is only writing its outcome: joining it would silently drop this request (a
    // `full` job asked for right after an incremental one), so wait for it and start anew.
    if (active) await active.done.catch(() => undefined);
    const persisted = await this.jobs.findActive(workspaceId, repositoryId);
    const job = persisted ?? (await this.jobs.create(workspaceId, repositoryId, kind, paths ? { paths } : {}));
    this.enqueue(job);
    return { job: mapIndexJob(job), joined: Boolean(persisted) };
  }

  /** Resolves when the job finishes (for the CLI and tests). */
  async waitForJob(workspaceId: string, jobId: string): Promise<IndexJob> {
    const row = await this.jobs.findById(workspaceId, jobId);
    if (!row) throw notFound('Index job', jobId);
    const active = this.running.get(row.repositoryId);
    if (active && active.job.id === jobId) return mapIndexJob(await active.done);
    return mapIndexJob(row);
  }

  async getJob(workspaceId: string, jobId: string): Promise<IndexJob> {
    const row = await this.jobs.findById(workspaceId, jobId);
    if (!row) throw notFound('Index job', jobId);
    const live = this.running.get(row.repositoryId);
    return mapIndexJob(live && live.job.id === jobId ? live.job : row);
  }

  async listJobs(workspaceId: string): Promise<IndexJob[]> {
    return (await this.jobs.list(workspaceId)).map((r) => this.liveJob(r));
  }

  /** A page of jobs, newest first; `next_cursor` is null on the last page. */
  async pageJobs(workspaceId: string, query: ListJobsQuery): Promise<{ jobs: IndexJob[]; next_cursor: string | null }> {
    const offset = decodePageCursor(query.cursor);
    const page = pageFromRows(await this.jobs.page(workspaceId, { limit: query.limit + 1, offset, repositoryId: query.repository_id }), query.limit, offset);
    return { jobs: page.items.map((r) => this.liveJob(r)), next_cursor: page.next_cursor };
  }

  private liveJob(row: IndexJobEntity): IndexJob {
    const live = this.running.get(row.repositoryId);
    return mapIndexJob(live?.job.id === row.id ? live.job : row);
  }

  async cancelJob(workspaceId: string, jobId: string): Promise<IndexJob> {
    const row = await this.jobs.findById(workspaceId, jobId);
    if (!row) throw notFound('Index job', jobId);
    const active = this.running.get(row.repositoryId);
    if (active && active.job.id === jobId) {
      active.controller.abort();
      return mapIndexJob(await active.done);
    }
    if (row.status === 'queued' || row.status === 'running') {
      row.status = 'cancelled';
      row.finishedAt = new Date();
      await this.jobs.save(row);
    }
    return mapIndexJob(row);
  }

  /** Jobs a killed process left behind are picked up again; they finish with exactly the chunks a clean run gives. */
  async resumeUnfinished(): Promise<number> {
    const unfinished = await this.jobs.listUnfinished();
    for (const job of unfinished) {
      this.logger.log(`Resuming index job ${job.id} (${job.counts.processed}/${job.counts.toIndex} files done before the interruption)`);
      this.enqueue(job);
    }
    return unfinished.length;
  }

  /** Interrupts running jobs on shutdown; they stay `running` in the database and resume on the next start. */
  async stopAll(): Promise<void> {
    this.shuttingDown = true;
    for (const r of this.running.values()) r.controller.abort(SHUTDOWN);
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }

  private enqueue(job: IndexJobEntity): void {
    const controller = new AbortController();
    let resolveDone!: (j: IndexJobEntity) => void;
    let rejectDone!: (e: unknown) => void;
    const done = new Promise<IndexJobEntity>((res, rej) => ((resolveDone = res), (rejectDone = rej)));
    done.catch(() => undefined);
    this.running.set(job.repositoryId, { job, controller, done });
    this.queue = this.queue
      .then(async () => {
        if (this.shuttingDown) return resolveDone(job);
        const finished = controller.signal.aborted && job.status === 'queued' ? await this.markCancelled(job) : await this.runThroughOutages(job, controller.signal);
        this.recordFinished(finished);
        resolveDone(finished);
      })
      .catch((err) => {
        this.logger.error({ err, jobId: job.id }, 'Index job crashed');
        rejectDone(err);
      })
      .finally(() => {
        if (this.running.get(job.repositoryId)?.job.id === job.id) this.running.delete(job.repositoryId);
        this.queueDepth.set(this.running.size);
      });
    this.queueDepth.set(this.running.size);
  }

  private recordFinished(job: IndexJobEntity): void {
    if (!['succeeded', 'failed', 'cancelled'].includes(job.status)) return; // interrupted by shutdown: resumes later
    if (job.startedAt && job.finishedAt) this.jobDuration.observe({ kind: job.kind, status: job.status }, (job.finishedAt.getTime() - job.startedAt.getTime()) / 1000);
    this.jobFiles.inc({ outcome: 'indexed' }, job.counts.indexed);
    this.jobFiles.inc({ outcome: 'failed' }, job.counts.failed);
    this.jobChunks.inc(job.counts.chunks);
  }

  /**
   * Runs a job; when the database goes away under it, the job says so (`error` on the live
   * job, shown by `GET /v1/jobs/:id` and the dashboard), waits for the database and resumes
   * from what it had written, like a job a killed process left.
   */
  private async runThroughOutages(job: IndexJobEntity, signal: AbortSignal): Promise<IndexJobEntity> {
    for (;;) {
      try {
        return await this.runner.run(job, signal);
      } catch (err) {
        if (!isDatabaseUnavailable(err) || signal.aborted) throw err;
        this.logger.warn(`Index job ${job.id} paused: the database is unreachable; it resumes when the database is back`);
        job.error = 'paused: the database is unreachable; the job resumes when it is back';
        const persisted = await this.waitForDatabase(job, signal);
        if (!persisted) return job;
        this.logger.log(`Database reachable again: resuming index job ${job.id} (${persisted.counts.processed}/${persisted.counts.toIndex} files were recorded)`);
        const live = this.running.get(job.repositoryId);
        if (live?.job.id === job.id) live.job = persisted;
        job = persisted;
      }
    }
  }

  /** Polls until the job's row can be read again (null if the job was stopped meanwhile). */
  private async waitForDatabase(job: IndexJobEntity, signal: AbortSignal): Promise<IndexJobEntity | null> {
    while (!signal.aborted) {
      await new Promise((resolve) => setTimeout(resolve, DATABASE_RETRY_MS).unref());
      try {
        return (await this.jobs.findById(job.workspaceId, job.id)) ?? null;
      } catch (err) {
        if (!isDatabaseUnavailable(err)) throw err;
      }
    }
    return null;
  }

  private async markCancelled(job: IndexJobEntity): Promise<IndexJobEntity> {
    job.status = 'cancelled';
    job.finishedAt = new Date();
    await this.jobs.save(job);
    return job;
  }

  private async requireRepo(workspaceId: string, id: string): Promise<RepositoryEntity> {
    const repo = await this.repos.findById(workspaceId, id);
    if (!repo) throw notFound('Repository', id);
    return repo;
  }

  private async uniqueName(workspaceId: string, base: string): Promise<string> {
    let name = base;
    for (let i = 2; await this.repos.findByName(workspaceId, name); i++) name = `${base}-${i}`;
    return name;
  }
}
