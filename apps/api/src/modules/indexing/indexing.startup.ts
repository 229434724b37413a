import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/config.schema';
import { EMBEDDER } from '../../storage/storage.module';
import { isGitRepo } from '@sextant/indexer';
import { TaskHistoryService } from '../task-history/task-history.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { readIndexEmbedder, writeIndexEmbedder } from './index-embedder.marker';
import { IndexingService } from './services/indexing.service';
import { RepositoryWatcherService } from './services/repository-watcher.service';

/**
 * What a starting server does for indexing: resume jobs a killed process left behind,
 * watch repositories with `watch` on, and — on a fresh install — register and index
 * SEXTANT_REPO (default: the current directory) so the first search returns something.
 */
export async function startBackgroundIndexing(app: INestApplicationContext, config: AppConfig): Promise<void> {
  const logger = new Logger('Indexing');
  const indexing = app.get(IndexingService);
  const resumed = await indexing.resumeUnfinished();
  if (resumed) logger.log(`Resuming ${resumed} interrupted index job(s)`);
  await reembedAfterEmbedderChange(app, config, logger);
  warmUpLocalModel(app, logger);
  await app.get(RepositoryWatcherService).watchConfigured();
  if ((await indexing.countRepositories()) > 0) return;
  const target = config.indexing.defaultRepo ?? process.cwd();
  try {
    const ws = await app.get(WorkspacesService).ensureDefault();
    const repo = await indexing.register(ws.id, { path: target, watch: config.indexing.watchDefault });
    const job = await indexing.startJob(ws.id, repo.id, 'full');
    if (repo.watch) await app.get(RepositoryWatcherService).watch(ws.id, repo.id);
    logger.log(`First start: indexing ${repo.root_path} as "${repo.name}" (job ${job.id}); follow it at GET /v1/jobs/${job.id}`);
    void importHistoryAfterIndexing(app, ws.id, repo.id, repo.root_path, job.id, logger);
  } catch (err) {
    logger.warn(`Could not index ${target} on first start: ${(err as Error).message}`);
  }
}

/**
 * The first start also imports the repository's git history as past tasks, once its files are
 * indexed (task search reads both, and the learned ranker is fitted from them a few seconds
 * later), so a fresh install searches code and history alike. A directory that is not a git
 * work tree has no history to import.
 */
async function importHistoryAfterIndexing(app: INestApplicationContext, workspaceId: string, repositoryId: string, root: string, jobId: string, logger: Logger): Promise<void> {
  try {
    if (!(await isGitRepo(root))) return;
    const job = await app.get(IndexingService).waitForJob(workspaceId, jobId);
    if (job.status !== 'succeeded') return;
    const result = await app.get(TaskHistoryService).importGit(workspaceId, repositoryId);
    logger.log(`First start: imported ${result.imported} commits of ${root} as past tasks (${result.noise} noise commits skipped); import more with \`sextant tasks import\``);
    for (const w of result.warnings ?? []) logger.warn(`Git history of ${root}: ${w}`);
  } catch (err) {
    logger.warn(`Could not import the git history of ${root} on first start: ${(err as Error).message}; run \`sextant tasks import-git ${root}\``);
  }
}

/**
 * Vectors of different embedders do not mix: when the server starts with another embedder
 * (EMBEDDINGS_PROVIDER/EMBEDDINGS_MODEL changed) than the one that built the index, every
 * repository gets a full index job, so unchanged files are re-embedded too. The embedding
 * cache is keyed by embedder id, so each model's vectors are computed once: switching back
 * re-reads them from the cache. A data dir with no record (from before it was kept) is taken
 * to match the current embedder.
 */
export async function reembedAfterEmbedderChange(app: INestApplicationContext, config: AppConfig, logger = new Logger('Indexing')): Promise<number> {
  const current = app.get<{ id: string }>(EMBEDDER).id;
  const previous = readIndexEmbedder(config.storage.dataDir);
  let started = 0;
  if (previous && previous !== current) {
    const indexing = app.get(IndexingService);
    for (const ws of await app.get(WorkspacesService).list()) {
      for (const repo of await indexing.list(ws.id)) {
        await indexing.startJob(ws.id, repo.id, 'full');
        started++;
      }
    }
    if (started) logger.log(`The embedder changed from ${previous} to ${current}: re-embedding ${started} repositor${started === 1 ? 'y' : 'ies'} (full index jobs; vectors are cached per embedder)`);
  }
  if (previous !== current) writeIndexEmbedder(config.storage.dataDir, current);
  return started;
}

/**
 * A local model takes seconds to load into its worker; loading it at start-up (downloading it
 * first if needed, with progress in the log) keeps the first searches from timing out their
 * dense sources. In the background: the server answers meanwhile.
 */
function warmUpLocalModel(app: INestApplicationContext, logger: Logger): void {
  const embedder = app.get<{ id: string; embedQuery(text: string): Promise<Float32Array> }>(EMBEDDER);
  if (!embedder.id.startsWith('local:')) return;
  const started = Date.now();
  embedder.embedQuery('warm up').then(
    () => logger.log(`Embedding model ${embedder.id} loaded in ${Date.now() - started} ms`),
    (err: Error) => logger.warn(`Embedding model ${embedder.id} could not be loaded: ${err.message}`),
  );
}
