import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExternalSearchService } from './external-search.service';
import { McpConnectionPool } from './mcp-connection.pool';
import { McpSourceEntity } from './mcp-source.entity';
import { McpSourcesController } from './mcp-sources.controller';
import { McpSourcesRepository } from './mcp-sources.repository';
import { McpSourcesService } from './mcp-sources.service';
import { SourceSecrets } from './source-secrets';

/** External MCP servers as search sources (seed 002): settings, the connection pool, querying. */
@Module({
  imports: [TypeOrmModule.forFeature([McpSourceEntity])],
  controllers: [McpSourcesController],
  providers: [McpSourcesRepository, McpConnectionPool, ExternalSearchService, McpSourcesService, SourceSecrets],
  exports: [ExternalSearchService, McpSourcesService],
})
export class ExternalSourcesModule {}
