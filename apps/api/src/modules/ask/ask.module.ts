import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { FusionModule } from '../fusion/fusion.module';
import { IndexingModule } from '../indexing/indexing.module';
import { TaskHistoryModule } from '../task-history/task-history.module';
import { AskController } from './ask.controller';
import { AskGateway } from './ask.gateway';
import { AskService } from './ask.service';
import { CHAT_MODEL, type ChatModel } from './chat-model.port';
import { OpenAiChatModel } from './openai-chat.model';

/** Ask: grounded, cited answers over REST, SSE, socket.io, MCP (`ask` tool) and the CLI. Disabled (null chat model) without CHAT_MODEL. */
@Module({
  imports: [FusionModule, TaskHistoryModule, IndexingModule],
  controllers: [AskController],
  providers: [
    {
      provide: CHAT_MODEL,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ChatModel | null => {
        const c = config.chat;
        return c.model ? new OpenAiChatModel({ model: c.model, baseURL: c.baseURL, apiKey: c.apiKey, timeoutMs: c.timeoutMs, maxRetries: c.maxRetries }) : null;
      },
    },
    AskService,
    AskGateway,
  ],
  exports: [AskService],
})
export class AskModule {}
