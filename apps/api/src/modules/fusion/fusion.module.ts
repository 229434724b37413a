import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FileSearchModule } from '../file-search/file-search.module';
import { IndexingModule } from '../indexing/indexing.module';
import { TaskHistoryModule } from '../task-history/task-history.module';
import { FusionWeightsEntity } from './fusion-weights.entity';
import { FusionWeightsService } from './fusion-weights.service';
import { SearchLogEntity, SearchPoolEntity } from './search-log.entity';
import { SearchLogService } from './search-log.service';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { STRUCTURAL_PRIORS, structuralPriorsProvider } from './structural-priors.provider';

@Module({
  imports: [TypeOrmModule.forFeature([FusionWeightsEntity, SearchLogEntity, SearchPoolEntity]), FileSearchModule, TaskHistoryModule, IndexingModule],
  controllers: [SearchController],
  providers: [SearchService, FusionWeightsService, SearchLogService, structuralPriorsProvider],
  exports: [SearchService, FusionWeightsService, SearchLogService, STRUCTURAL_PRIORS],
})
export class FusionModule {}
