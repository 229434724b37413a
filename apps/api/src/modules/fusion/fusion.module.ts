import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FileSearchModule } from '../file-search/file-search.module';
import { IndexingModule } from '../indexing/indexing.module';
import { TaskHistoryModule } from '../task-history/task-history.module';
import { FusionWeightsEntity } from './fusion-weights.entity';
import { FusionWeightsService } from './fusion-weights.service';
import { LearnedRankerService } from './learned-ranker.service';
import { RankerFeatureLog } from './ranker-feature-log';
import { RankerModelEntity } from './ranker-model.entity';
import { RankerTrainingService } from './ranker-training.service';
import { RatedSearchesRepository } from './rated-searches.repository';
import { FeedbackRatingEntity } from '../feedback/feedback-rating.entity';
import { RankerController } from './ranker.controller';
import { SearchLogEntity, SearchPoolEntity } from './search-log.entity';
import { SearchLogService } from './search-log.service';
import { SearchController } from './search.controller';
import { SearchService } from './search.service';
import { rerankerProvider } from './reranker.provider';
import { SearchRerankService } from './search-rerank.service';
import { ExternalSourcesModule } from '../external-sources/external-sources.module';
import { ExternalResultsService } from './external-results.service';
import { GraphExpansionService } from './graph-expansion.service';
import { STRUCTURAL_PRIORS, structuralPriorsProvider } from './structural-priors.provider';

@Module({
  imports: [TypeOrmModule.forFeature([FusionWeightsEntity, SearchLogEntity, SearchPoolEntity, RankerModelEntity, FeedbackRatingEntity]), FileSearchModule, TaskHistoryModule, IndexingModule, ExternalSourcesModule],
  controllers: [SearchController, RankerController],
  providers: [SearchService, FusionWeightsService, SearchLogService, structuralPriorsProvider, LearnedRankerService, RankerTrainingService, RankerFeatureLog, RatedSearchesRepository, rerankerProvider, SearchRerankService, ExternalResultsService, GraphExpansionService],
  exports: [SearchService, FusionWeightsService, SearchLogService, STRUCTURAL_PRIORS, LearnedRankerService, RankerTrainingService, RankerFeatureLog],
})
export class FusionModule {}
