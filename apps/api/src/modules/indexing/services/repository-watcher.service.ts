import * as fs from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import watcher from '@parcel/watcher';
import type { IndexJob } from '@sextant/contracts';
import { APP_CONFIG } from '../../../config/config.module';
import type { AppConfig } from '../../../config/config.schema';
import { RepositoriesRepository } from '../repositories/repositories.repository';
import { IndexingService } from './indexing.service';
import { isWithin, realDataDir } from './repository-location';

/** Files (relative, posix) under `dir` when it is a directory; empty otherwise. */
function filesUnder(dir: string): string[] {
  try {
    if (!fs.statSync(dir).isDirectory()) return [];
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && !d.parentPath.split(path.sep).some((part) => part === 'node_modules' || part === '.git'))
      .map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'));
  } catch {
    return []; // deleted again already
  }
}

/** Quiet period after the last file event before a job starts. */
export const WATCH_DEBOUNCE_MS = 300;
/** Upper bound on how long constant churn can postpone a job. */
const WATCH_MAX_WAIT_MS = 3000;
/** Beyond this many paths a targeted job is no cheaper than a normal incremental one. */
const TARGETED_PATH_LIMIT = 2000;
const IGNORED = ['.git', 'node_modules', '**/node_modules', '**/.git', '.sextant', 'dist', 'build'];

interface WatchState {
  workspaceId: string;
  repositoryId: string;
  root: string;
  subscription: watcher.AsyncSubscription;
  pending: Set<string>;
  timer?: NodeJS.Timeout;
  firstEventAt?: number;
  inFlight?: Promise<unknown>;
  jobsStarted: number;
}

/**
 * Live mode. Uses @parcel/watcher rather than chokidar: it is native (inotify/FSEvents/
 * ReadDirectoryChangesW), watches a whole tree with one subscription instead of one
 * fs.watch per directory, and batches events in C++ — so a `git checkout` touching
 * thousands of files arrives as a few callbacks, which we coalesce into one job.
 */
@Injectable()
export class RepositoryWatcherService implements OnApplicationShutdown {
  private readonly logger = new Logger(RepositoryWatcherService.name);
  private readonly watched = new Map<string, WatchState>();
  /** Observers (CLI, tests) of jobs started by the watcher. */
  onJobStarted?: (job: IndexJob, paths: number) => void;

  constructor(
    private readonly repos: RepositoriesRepository,
    private readonly indexing: IndexingService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Watches every repository whose `watch` setting is on. */
  async watchConfigured(): Promise<number> {
    for (const repo of await this.repos.listWatched()) await this.watch(repo.workspaceId, repo.id);
    return this.watched.size;
  }

  async watch(workspaceId: string, repositoryId: string): Promise<void> {
    if (this.watched.has(repositoryId)) return;
    const repo = await this.repos.findById(workspaceId, repositoryId);
    if (!repo) return;
    const state: WatchState = { workspaceId, repositoryId, root: repo.rootPath, pending: new Set(), jobsStarted: 0, subscription: undefined as never };
    // A checkout holding the data directory: the database writes there all the time, and none of it is indexed.
    const dataDir = realDataDir(this.config.storage.dataDir);
    const ignore = isWithin(dataDir, repo.rootPath) ? [...IGNORED, dataDir] : IGNORED;
    state.subscription = await watcher.subscribe(
      repo.rootPath,
      (err, events) => {
        if (err) return this.logger.warn(`Watcher error on ${repo.rootPath}: ${err.message}`);
        for (const e of events) {
          const rel = path.relative(repo.rootPath, e.path).split(path.sep).join('/');
          if (!rel || rel.startsWith('..') || isWithin(e.path, dataDir)) continue;
          state.pending.add(rel);
          // inotify only watches a new directory once it is seen, so files written into it
          // before that (a checkout, an unzip) produce no events of their own: walk it.
          if (e.type === 'create') for (const inner of filesUnder(e.path)) state.pending.add(`${rel}/${inner}`);
        }
        this.schedule(state);
      },
      { ignore },
    );
    this.watched.set(repositoryId, state);
    this.logger.log(`Watching ${repo.rootPath} for changes`);
  }

  async unwatch(repositoryId: string): Promise<void> {
    const state = this.watched.get(repositoryId);
    if (!state) return;
    clearTimeout(state.timer);
    this.watched.delete(repositoryId);
    await state.subscription.unsubscribe();
  }

  isWatching(repositoryId: string): boolean {
    return this.watched.has(repositoryId);
  }

  stats(repositoryId: string): { jobsStarted: number; pending: number } | undefined {
    const s = this.watched.get(repositoryId);
    return s && { jobsStarted: s.jobsStarted, pending: s.pending.size };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.watched.keys()].map((id) => this.unwatch(id)));
  }

  private schedule(state: WatchState): void {
    state.firstEventAt ??= Date.now();
    clearTimeout(state.timer);
    const waited = Date.now() - state.firstEventAt;
    const delay = waited >= WATCH_MAX_WAIT_MS ? 0 : WATCH_DEBOUNCE_MS;
    state.timer = setTimeout(() => void this.flush(state), delay);
  }

  private async flush(state: WatchState): Promise<void> {
    if (state.inFlight) {
      // A job from an earlier flush is still running: these changes go in the next one.
      await state.inFlight.catch(() => undefined);
      if (!this.watched.has(state.repositoryId)) return;
    }
    if (!state.pending.size) return;
    const paths = [...state.pending];
    state.pending.clear();
    state.firstEventAt = undefined;
    const run = (async () => {
      const { job, joined } = await this.indexing.startOrJoin(state.workspaceId, state.repositoryId, 'incremental', paths.length <= TARGETED_PATH_LIMIT ? paths : undefined);
      if (joined) for (const p of paths) state.pending.add(p); // that job may predate these edits: redo them after it
      else {
        state.jobsStarted += 1;
        this.onJobStarted?.(job, paths.length);
      }
      await this.indexing.waitForJob(state.workspaceId, job.id);
    })();
    state.inFlight = run.finally(() => (state.inFlight = undefined));
    await state.inFlight.catch((err: Error) => this.logger.warn(`Watch-triggered index of ${state.root} failed: ${err.message}`));
    if (state.pending.size) this.schedule(state);
  }
}
