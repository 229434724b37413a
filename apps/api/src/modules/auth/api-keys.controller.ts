import { Body, Controller, Delete, Get, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiKeyListResponseSchema, ApiKeySchema, CreatedApiKeySchema, ListApiKeysQuerySchema, type ApiKeyListResponse } from '@sextant/contracts';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { pageOfList } from '../../common/page-cursor';
import { zodDto } from '../../common/zod-validation.pipe';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { ApiKeysService } from './api-keys.service';
import { CreateApiKeyDto, CreateApiKeyRequestSchema, type ApiKey, type CreatedApiKey } from './dtos/api-key.dto';
import { RequireRole } from './role.decorator';

class ListApiKeysQueryDto extends zodDto(ListApiKeysQuerySchema) {}

/** Key management for admins, always inside the caller's own workspace. */
@ApiTags('keys')
@RequireRole('admin')
@Controller('v1/keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  /** Returns the full key once; only its hash is kept. */
  @Post()
  @ApiOp('Create an API key (the full key is in this response only)', CreatedApiKeySchema)
  @ApiZodBody(CreateApiKeyRequestSchema)
  create(@CurrentWorkspace() ws: string, @Body() body: CreateApiKeyDto): Promise<CreatedApiKey> {
    return this.keys.create(ws, body);
  }

  @Get()
  @ApiOp('List the workspace\'s API keys (oldest first, paged; never the secret)', ApiKeyListResponseSchema)
  @ApiZodQuery(ListApiKeysQuerySchema)
  async list(@CurrentWorkspace() ws: string, @Query() q: ListApiKeysQueryDto): Promise<ApiKeyListResponse> {
    const page = pageOfList(await this.keys.list(ws), q);
    return { keys: page.items, next_cursor: page.next_cursor };
  }

  /** Revokes the key; requests with it fail from the next one on. */
  @Delete(':id')
  @ApiOp('Revoke an API key', ApiKeySchema)
  revoke(@CurrentWorkspace() ws: string, @Param('id', ParseUUIDPipe) id: string): Promise<ApiKey> {
    return this.keys.revoke(ws, id);
  }
}
