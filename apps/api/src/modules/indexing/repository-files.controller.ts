import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RepositoryFileQuerySchema, RepositoryFileSchema, type RepositoryFile } from '@sextant/contracts';
import { ApiOp, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { RepositoryFilesService } from './services/repository-files.service';

class RepositoryFileQueryDto extends zodDto(RepositoryFileQuerySchema) {}

@ApiTags('indexing')
@Controller('v1/repos')
export class RepositoryFilesController {
  constructor(private readonly files: RepositoryFilesService) {}

  /** The whole text of one indexed file (the dashboard's file view), with its code-host link when the repository has a remote. */
  @Get(':id/file')
  @ApiZodQuery(RepositoryFileQuerySchema)
  @ApiOp('Read one indexed file whole, with its code-host link', RepositoryFileSchema)
  read(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string, @Query() q: RepositoryFileQueryDto): Promise<RepositoryFile> {
    return this.files.read(ws, id, q.path);
  }
}
