import { Module } from '@nestjs/common';
import { IndexingModule } from '../indexing/indexing.module';
import { CodeGraphController } from './code-graph.controller';
import { CodeGraphService } from './code-graph.service';

/** Navigation over the code graph the index jobs keep (REST here; MCP tools in McpModule; `file.graph` in FusionModule). */
@Module({
  imports: [IndexingModule],
  controllers: [CodeGraphController],
  providers: [CodeGraphService],
  exports: [CodeGraphService],
})
export class CodeGraphModule {}
