import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  FileDependenciesResponseSchema,
  FileGraphQuerySchema,
  FileSymbolsResponseSchema,
  SymbolEdgesQuerySchema,
  SymbolEdgesResponseSchema,
  SymbolSearchQuerySchema,
  SymbolSearchResponseSchema,
  type FileDependenciesResponse,
  type FileSymbolsResponse,
  type SymbolEdgesResponse,
  type SymbolSearchResponse,
} from '@sextant/contracts';
import { ApiOp, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import { RequireRole } from '../auth/role.decorator';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { CodeGraphService } from './code-graph.service';

class SymbolSearchQueryDto extends zodDto(SymbolSearchQuerySchema) {}
class SymbolEdgesQueryDto extends zodDto(SymbolEdgesQuerySchema) {}
class FileGraphQueryDto extends zodDto(FileGraphQuerySchema) {}

/** Definitions, references, callers and callees of the code graph, in the caller's workspace. */
@ApiTags('code-graph')
@Controller('v1')
@RequireRole('reader')
export class CodeGraphController {
  constructor(private readonly graph: CodeGraphService) {}

  @Get('symbols')
  @ApiOp('Definitions whose name is the query or starts with it (case-insensitive; exact first)', SymbolSearchResponseSchema)
  @ApiZodQuery(SymbolSearchQuerySchema)
  search(@CurrentWorkspace() ws: string, @Query() q: SymbolSearchQueryDto): Promise<SymbolSearchResponse> {
    return this.graph.searchSymbols(ws, q);
  }

  @Get('symbols/:id/references')
  @ApiOp('Every call, reference and import of a symbol', SymbolEdgesResponseSchema)
  @ApiZodQuery(SymbolEdgesQuerySchema)
  references(@CurrentWorkspace() ws: string, @Param('id', new ParseUUIDPipe()) id: string, @Query() q: SymbolEdgesQueryDto): Promise<SymbolEdgesResponse> {
    return this.graph.edges(ws, id, 'references', q);
  }

  @Get('symbols/:id/callers')
  @ApiOp('The definitions that call a symbol, with the call sites', SymbolEdgesResponseSchema)
  @ApiZodQuery(SymbolEdgesQuerySchema)
  callers(@CurrentWorkspace() ws: string, @Param('id', new ParseUUIDPipe()) id: string, @Query() q: SymbolEdgesQueryDto): Promise<SymbolEdgesResponse> {
    return this.graph.edges(ws, id, 'callers', q);
  }

  @Get('symbols/:id/callees')
  @ApiOp('The definitions a symbol calls, with the call sites', SymbolEdgesResponseSchema)
  @ApiZodQuery(SymbolEdgesQuerySchema)
  callees(@CurrentWorkspace() ws: string, @Param('id', new ParseUUIDPipe()) id: string, @Query() q: SymbolEdgesQueryDto): Promise<SymbolEdgesResponse> {
    return this.graph.edges(ws, id, 'callees', q);
  }

  /** The path is a query parameter (it contains slashes). */
  @Get('files/symbols')
  @ApiOp('The definitions of one file, in file order', FileSymbolsResponseSchema)
  @ApiZodQuery(FileGraphQuerySchema)
  fileSymbols(@CurrentWorkspace() ws: string, @Query() q: FileGraphQueryDto): Promise<FileSymbolsResponse> {
    return this.graph.fileSymbols(ws, q);
  }

  @Get('files/dependencies')
  @ApiOp('The files (and external modules) a file imports', FileDependenciesResponseSchema)
  @ApiZodQuery(FileGraphQuerySchema)
  dependencies(@CurrentWorkspace() ws: string, @Query() q: FileGraphQueryDto): Promise<FileDependenciesResponse> {
    return this.graph.fileDependencies(ws, q, 'dependencies');
  }

  @Get('files/dependents')
  @ApiOp('The files that import a file', FileDependenciesResponseSchema)
  @ApiZodQuery(FileGraphQuerySchema)
  dependents(@CurrentWorkspace() ws: string, @Query() q: FileGraphQueryDto): Promise<FileDependenciesResponse> {
    return this.graph.fileDependencies(ws, q, 'dependents');
  }
}
