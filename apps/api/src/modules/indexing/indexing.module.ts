import * as os from 'node:os';
import { BeforeApplicationShutdown, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { CachedEmbedder } from '@sextant/embeddings';
import { ParsePool } from '@sextant/indexer';
import { EMBEDDER } from '../../storage/storage.module';
import { FileEntity } from './entities/file.entity';
import { GraphEdgeEntity } from './entities/graph-edge.entity';
import { GraphFileImportEntity } from './entities/graph-file-import.entity';
import { GraphFileEntity } from './entities/graph-file.entity';
import { GraphSymbolEntity } from './entities/graph-symbol.entity';
import { IndexJobEntity } from './entities/index-job.entity';
import { RepositoryEntity } from './entities/repository.entity';
import { IndexingController } from './indexing.controller';
import { RepositoryFilesController } from './repository-files.controller';
import { CodeGraphRepository } from './repositories/code-graph.repository';
import { FilesRepository } from './repositories/files.repository';
import { IndexJobsRepository } from './repositories/index-jobs.repository';
import { RepositoriesRepository } from './repositories/repositories.repository';
import { SymbolsRepository } from './repositories/symbols.repository';
import { CodeGraphUpdater } from './services/code-graph.updater';
import { IndexJobRunner } from './services/index-job.runner';
import { IndexingService } from './services/indexing.service';
import { INDEX_EMBEDDINGS, PARSE_POOL, type IndexEmbeddings } from './services/indexing.tokens';
import { RepositoryFilesService } from './services/repository-files.service';
import { RepositoryWatcherService } from './services/repository-watcher.service';

@Module({
  imports: [TypeOrmModule.forFeature([RepositoryEntity, FileEntity, IndexJobEntity, GraphFileEntity, GraphSymbolEntity, GraphEdgeEntity, GraphFileImportEntity])],
  controllers: [IndexingController, RepositoryFilesController],
  providers: [
    RepositoriesRepository,
    FilesRepository,
    IndexJobsRepository,
    SymbolsRepository,
    CodeGraphRepository,
    CodeGraphUpdater,
    IndexJobRunner,
    IndexingService,
    RepositoryWatcherService,
    RepositoryFilesService,
    { provide: PARSE_POOL, useFactory: () => new ParsePool({ size: Math.max(1, Math.min(os.availableParallelism(), 4)), timeoutMs: 10_000 }) },
    {
      provide: INDEX_EMBEDDINGS,
      inject: [EMBEDDER],
      useFactory: (embedder: CachedEmbedder): IndexEmbeddings => ({
        async embedChunks(items, signal) {
          const before = embedder.stats;
          const vectors = await embedder.embedChunks(items, signal);
          const after = embedder.stats;
          return { vectors, hits: after.hits - before.hits, embedded: after.embedded - before.embedded };
        },
      }),
    },
  ],
  exports: [IndexingService, RepositoryWatcherService, FilesRepository, RepositoriesRepository, SymbolsRepository, CodeGraphRepository],
})
export class IndexingModule implements BeforeApplicationShutdown, OnApplicationShutdown {
  constructor(
    @Inject(PARSE_POOL) private readonly pool: ParsePool,
    private readonly indexing: IndexingService,
  ) {}

  /** Jobs stop (and stay resumable) before the pool, stores and database close. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.indexing.stopAll();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.close();
  }
}
