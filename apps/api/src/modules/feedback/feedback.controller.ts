import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { FeedbackListQuerySchema, FeedbackListResponseSchema, FeedbackRateRequestSchema, FeedbackRateResponseSchema, FeedbackRecentQuerySchema, FeedbackRecentResponseSchema, type FeedbackListResponse, type FeedbackRateResponse, type FeedbackRecentResponse } from '@sextant/contracts';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { RequireRole } from '../auth/role.decorator';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { FeedbackService } from './feedback.service';

class FeedbackRateDto extends zodDto(FeedbackRateRequestSchema) {}
class FeedbackListQueryDto extends zodDto(FeedbackListQuerySchema) {}
class FeedbackRecentQueryDto extends zodDto(FeedbackRecentQuerySchema) {}

@ApiTags('feedback')
@Controller('v1/feedback')
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  /** Rate one result of a search (+1 / -1 / 0, or 1..5 stars); rating again replaces the earlier rating. */
  @Post()
  @HttpCode(200)
  @RequireRole('member')
  @ApiOp('Rate one result of a search', FeedbackRateResponseSchema)
  @ApiZodBody(FeedbackRateRequestSchema)
  rate(@CurrentAuth() auth: AuthContext, @Body() body: FeedbackRateDto): Promise<FeedbackRateResponse> {
    return this.feedback.rate(auth, body);
  }

  /** Every rating of one search, with per-item totals. */
  @Get()
  @RequireRole('reader')
  @ApiOp('Every rating of one search, with per-item totals', FeedbackListResponseSchema)
  @ApiZodQuery(FeedbackListQuerySchema)
  list(@CurrentAuth() auth: AuthContext, @Query() query: FeedbackListQueryDto): Promise<FeedbackListResponse> {
    return this.feedback.list(auth, query.search_id);
  }

  /** The workspace's latest ratings, newest first (`limit` 1..100, default 20; `cursor` for the next page). */
  @Get('recent')
  @RequireRole('reader')
  @ApiOp('The workspace\'s latest ratings (newest first, paged)', FeedbackRecentResponseSchema)
  @ApiZodQuery(FeedbackRecentQuerySchema)
  recent(@CurrentAuth() auth: AuthContext, @Query() query: FeedbackRecentQueryDto): Promise<FeedbackRecentResponse> {
    return this.feedback.recent(auth, query);
  }
}
