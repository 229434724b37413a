import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SearchRequestSchema, SearchResponseSchema, type SearchResponse } from '@sextant/contracts';
import { ApiOp, ApiZodBody } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { SearchService } from './search.service';

class SearchRequestDto extends zodDto(SearchRequestSchema) {}

@ApiTags('search')
@Controller('v1/search')
export class SearchController {
  constructor(private readonly search: SearchService) {}

  /** Fused, explained file (or chunk) results from code and task history. */
  @Post()
  @HttpCode(200)
  @ApiOp('Search code and task history: fused, explained file or chunk results', SearchResponseSchema)
  @ApiZodBody(SearchRequestSchema)
  run(@CurrentAuth() auth: AuthContext, @Body() body: SearchRequestDto): Promise<SearchResponse> {
    return this.search.search(auth.workspaceId, body, { principal: auth.principal });
  }
}
