import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { LoggerModule } from 'nestjs-pino';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { ZodValidationPipe } from './common/zod-validation.pipe';
import { ConfigModule } from './config/config.module';
import type { AppConfig } from './config/config.schema';
import { DatabaseModule } from './database/database.module';
import { loggerOptions } from './logging/logger.options';
import { AskModule } from './modules/ask/ask.module';
import { AuthModule } from './modules/auth/auth.module';
import { CodeGraphModule } from './modules/code-graph/code-graph.module';
import { EvaluationModule } from './modules/evaluation/evaluation.module';
import { FeedbackModule } from './modules/feedback/feedback.module';
import { HealthModule } from './modules/health/health.module';
import { FileSearchModule } from './modules/file-search/file-search.module';
import { FusionModule } from './modules/fusion/fusion.module';
import { IndexingModule } from './modules/indexing/indexing.module';
import { TaskHistoryModule } from './modules/task-history/task-history.module';
import { McpModule } from './modules/mcp/mcp.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { RealtimeModule } from './modules/realtime/realtime.module';
import { WorkspacesModule } from './modules/workspaces/workspaces.module';
import { StorageModule } from './storage/storage.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerOptions(config)),
        DatabaseModule,
        MetricsModule,
        HealthModule,
        EventEmitterModule.forRoot(),
        WorkspacesModule,
        AuthModule,
        StorageModule,
        IndexingModule,
        CodeGraphModule,
        TaskHistoryModule,
        FileSearchModule,
        FusionModule,
        FeedbackModule,
        EvaluationModule,
        AskModule,
        McpModule,
        RealtimeModule,
      ],
      providers: [
        { provide: APP_PIPE, useClass: ZodValidationPipe },
        { provide: APP_FILTER, useClass: HttpExceptionFilter },
      ],
    };
  }
}
