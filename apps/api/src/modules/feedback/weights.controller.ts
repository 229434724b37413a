import { Body, Controller, Get, HttpCode, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { WeightsHistoryQuerySchema, WeightsHistoryResponseSchema, WeightsQuerySchema, WeightsResetRequestSchema, WeightsResetResponseSchema, WeightsResponseSchema, WeightsUpdateRequestSchema, WeightsVersionSchema, type WeightsHistoryResponse, type WeightsResetResponse, type WeightsResponse, type WeightsVersion } from '@sextant/contracts';
import { ApiOp, ApiZodBody, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import type { AuthContext } from '../auth/auth-context';
import { RequireRole } from '../auth/role.decorator';
import { CurrentAuth } from '../workspaces/current-workspace.decorator';
import { LearnedWeightsService } from './learned-weights.service';

class WeightsQueryDto extends zodDto(WeightsQuerySchema) {}
class WeightsHistoryQueryDto extends zodDto(WeightsHistoryQuerySchema) {}
class WeightsUpdateDto extends zodDto(WeightsUpdateRequestSchema) {}
class WeightsResetDto extends zodDto(WeightsResetRequestSchema) {}

@ApiTags('feedback')
@Controller('v1/weights')
export class WeightsController {
  constructor(private readonly weights: LearnedWeightsService) {}

  /** Current fusion weights per query class, their history (oldest first), the prior, rating counts and the learner's parameters. */
  @Get()
  @RequireRole('reader')
  @ApiOp('Current fusion weights per query class, their history, the prior and rating counts', WeightsResponseSchema)
  @ApiZodQuery(WeightsQuerySchema)
  overview(@CurrentAuth() auth: AuthContext, @Query() query: WeightsQueryDto): Promise<WeightsResponse> {
    return this.weights.overview(auth.workspaceId, query);
  }

  /** Every stored version of one class's weights, newest first, paged (`GET /v1/weights` keeps the newest `history_limit` for charts). */
  @Get('history')
  @RequireRole('reader')
  @ApiOp('Weight history of one query class (newest first, paged)', WeightsHistoryResponseSchema)
  @ApiZodQuery(WeightsHistoryQuerySchema)
  history(@CurrentAuth() auth: AuthContext, @Query() query: WeightsHistoryQueryDto): Promise<WeightsHistoryResponse> {
    return this.weights.historyPage(auth.workspaceId, query.query_class, query);
  }

  /** Admin: set weights for a class and/or pin them (a pinned class ignores ratings). */
  @Put()
  @RequireRole('admin')
  @ApiOp('Set and/or pin the weights of a query class (admin)', WeightsVersionSchema)
  @ApiZodBody(WeightsUpdateRequestSchema)
  set(@CurrentAuth() auth: AuthContext, @Body() body: WeightsUpdateDto): Promise<WeightsVersion> {
    return this.weights.set(auth, body);
  }

  /** Admin: back to the built-in defaults (one class, or both), unpinned. */
  @Post('reset')
  @HttpCode(200)
  @RequireRole('admin')
  @ApiOp('Reset weights to the built-in defaults (admin)', WeightsResetResponseSchema)
  @ApiZodBody(WeightsResetRequestSchema)
  reset(@CurrentAuth() auth: AuthContext, @Body() body: WeightsResetDto): Promise<WeightsResetResponse> {
    return this.weights.reset(auth, body.query_class);
  }
}
