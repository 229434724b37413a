import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CreateWorkspaceRequestSchema } from '@sextant/contracts';
import { ApiZodBody } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import { Workspace, WorkspacesService } from './workspaces.service';

class CreateWorkspaceDto extends zodDto(CreateWorkspaceRequestSchema) {}

@ApiTags('workspaces')
@Controller('v1/workspaces')
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspacesService) {}

  @Get()
  async list(): Promise<{ workspaces: Workspace[] }> {
    return { workspaces: await this.workspaces.list() };
  }

  @Post()
  @ApiZodBody(CreateWorkspaceRequestSchema)
  create(@Body() body: CreateWorkspaceDto): Promise<Workspace> {
    return this.workspaces.create(body.slug, body.name);
  }
}
