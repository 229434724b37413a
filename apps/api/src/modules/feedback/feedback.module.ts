import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FusionModule } from '../fusion/fusion.module';
import { FeedbackRatingEntity } from './feedback-rating.entity';
import { FeedbackUpdateEntity } from './feedback-update.entity';
import { FeedbackController } from './feedback.controller';
import { FeedbackService } from './feedback.service';
import { feedbackParamsProvider } from './feedback.tokens';
import { LearnedWeightsService } from './learned-weights.service';
import { WeightsController } from './weights.controller';

/**
 * Feedback: ratings (REST, socket, MCP) -> credit from the search's pool -> an online
 * update of the workspace's fusion weights per query class -> `weights:updated`.
 */
@Module({
  imports: [TypeOrmModule.forFeature([FeedbackRatingEntity, FeedbackUpdateEntity]), FusionModule],
  controllers: [FeedbackController, WeightsController],
  providers: [FeedbackService, LearnedWeightsService, feedbackParamsProvider],
  exports: [FeedbackService, LearnedWeightsService],
})
export class FeedbackModule {}
