import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { ApiZodBody } from '../../common/openapi';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto, CreateApiKeyRequestSchema, type ApiKey, type CreatedApiKey } from './dtos/api-key.dto';
import { RequireRole } from './role.decorator';

/** Key management for admins, always inside the caller's own workspace. */
@ApiTags('keys')
@ApiBearerAuth()
@RequireRole('admin')
@Controller('v1/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** Returns the full key once; only its hash is kept. */
  @Post()
  @ApiZodBody(CreateApiKeyRequestSchema)
  create(@CurrentWorkspace() ws: string, @Body() body: CreateApiKeyDto): Promise<CreatedApiKey> {
    return this.keys.create(ws, body);
  }

  @Get()
  async list(@CurrentWorkspace() ws: string): Promise<{ keys: ApiKey[] }> {
    return { keys: await this.keys.list(ws) };
  }

  /** Revokes the key; requests with it fail from the next one on. */
  @Delete(':id')
  revoke(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<ApiKey> {
    return this.keys.revoke(ws, id);
  }
}
