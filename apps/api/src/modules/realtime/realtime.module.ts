import { Module } from '@nestjs/common';
import { FeedbackModule } from '../feedback/feedback.module';
import { FusionModule } from '../fusion/fusion.module';
import { RealtimeGateway } from './realtime.gateway';
import { SearchStreamController } from './search-stream.controller';

@Module({ imports: [FusionModule, FeedbackModule], controllers: [SearchStreamController], providers: [RealtimeGateway] })
export class RealtimeModule {}
