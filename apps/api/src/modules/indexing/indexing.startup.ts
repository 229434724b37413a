import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../../config/config.schema';
import { WorkspacesService } from '../workspaces/workspaces.service';
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
  await app.get(RepositoryWatcherService).watchConfigured();
  if ((await indexing.countRepositories()) > 0) return;
  const target = config.indexing.defaultRepo ?? process.cwd();
  try {
    const ws = await app.get(WorkspacesService).ensureDefault();
    const repo = await indexing.register(ws.id, { path: target, watch: config.indexing.watchDefault });
    const job = await indexing.startJob(ws.id, repo.id, 'full');
    logger.log(`First start: indexing ${repo.root_path} as "${repo.name}" (job ${job.id}); follow it at GET /v1/jobs/${job.id}`);
  } catch (err) {
    logger.warn(`Could not index ${target} on first start: ${(err as Error).message}`);
  }
}
