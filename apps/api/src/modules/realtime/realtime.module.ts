import { Module } from '@nestjs/common';
import { FusionModule } from '../fusion/fusion.module';
import { RealtimeGateway } from './realtime.gateway';
import { SearchStreamController } from './search-stream.controller';

@Module({ imports: [FusionModule], controllers: [SearchStreamController], providers: [RealtimeGateway] })
export class RealtimeModule {}
