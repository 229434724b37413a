import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { AskModule } from '../ask/ask.module';
import { CodeGraphModule } from '../code-graph/code-graph.module';
import { FeedbackModule } from '../feedback/feedback.module';
import { FeedbackService } from '../feedback/feedback.service';
import { FusionModule } from '../fusion/fusion.module';
import { IndexingModule } from '../indexing/indexing.module';
import { TaskHistoryModule } from '../task-history/task-history.module';
import { FEEDBACK_RATER } from './feedback-rater.port';
import { McpController } from './mcp.controller';
import { McpRequestMiddleware } from './mcp-request.middleware';
import { McpServerFactory } from './mcp-server.factory';
import { MCP_TOOLS } from './mcp-tool';
import { CodeSearchRunner, SearchClassesTool, SearchFilesByContentTool, SearchFunctionsTool } from './tools/code-search.tools';
import { SearchDocsTool } from './tools/docs.tool';
import { FetchTool } from './tools/fetch.tool';
import { FindCalleesTool, FindCallersTool, FindReferencesTool, GraphNavigationRunner } from './tools/graph.tools';
import { IndexStatusTool, RefreshIndexTool } from './tools/index.tools';
import { RateResultTool } from './tools/rate-result.tool';
import { SearchTool } from './tools/search.tool';
import { SearchSimilarTasksTool } from './tools/similar-tasks.tool';
import { AskTool } from './tools/ask.tool';

/** Listed in this order by `tools/list`. */
const TOOLS = [SearchTool, FetchTool, SearchFilesByContentTool, SearchFunctionsTool, SearchClassesTool, SearchSimilarTasksTool, SearchDocsTool, RefreshIndexTool, IndexStatusTool, RateResultTool, AskTool, FindReferencesTool, FindCallersTool, FindCalleesTool];

/**
 * The MCP surface for AI agents: `POST /mcp` (Streamable HTTP, stateless) and, through
 * McpServerFactory, `sextant mcp --stdio`.
 */
@Module({
  imports: [FusionModule, TaskHistoryModule, IndexingModule, FeedbackModule, AskModule, CodeGraphModule],
  controllers: [McpController],
  providers: [
    ...TOOLS,
    CodeSearchRunner,
    GraphNavigationRunner,
    { provide: MCP_TOOLS, inject: TOOLS, useFactory: (...tools: unknown[]) => tools },
    { provide: FEEDBACK_RATER, useExisting: FeedbackService },
    McpServerFactory,
  ],
  exports: [McpServerFactory],
})
export class McpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(McpRequestMiddleware).forRoutes('mcp');
  }
}
