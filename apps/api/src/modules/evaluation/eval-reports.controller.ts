import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { EvalReportListResponseSchema, EvalReportSchema, ListEvalReportsQuerySchema, type EvalReport, type EvalReportListResponse } from '@sextant/contracts';
import { ApiOp, ApiZodQuery } from '../../common/openapi';
import { zodDto } from '../../common/zod-validation.pipe';
import { RequireRole } from '../auth/role.decorator';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { EvalReportsService } from './eval-reports.service';

class ListEvalReportsQueryDto extends zodDto(ListEvalReportsQuerySchema) {}

/** Evaluation reports published to the caller's workspace (`sextant eval run --publish`). */
@ApiTags('evaluation')
@Controller('v1/eval/reports')
export class EvalReportsController {
  constructor(private readonly reports: EvalReportsService) {}

  /** Newest first, 20 a page by default, without charts. */
  @Get()
  @RequireRole('reader')
  @ApiOp('List published evaluation reports (newest first, paged)', EvalReportListResponseSchema)
  @ApiZodQuery(ListEvalReportsQuerySchema)
  list(@CurrentWorkspace() ws: string, @Query() q: ListEvalReportsQueryDto): Promise<EvalReportListResponse> {
    return this.reports.list(ws, q);
  }

  /** The newest report with its chart; 404 when none was published. */
  @Get('latest')
  @RequireRole('reader')
  @ApiOp('The newest evaluation report with its chart', EvalReportSchema, { problems: { 404: 'not_found: no report has been published to this workspace yet' } })
  latest(@CurrentWorkspace() ws: string): Promise<EvalReport> {
    return this.reports.latest(ws);
  }

  @Get(':id')
  @RequireRole('reader')
  @ApiOp('One evaluation report with its chart', EvalReportSchema)
  get(@CurrentWorkspace() ws: string, @Param('id', new ParseUUIDPipe()) id: string): Promise<EvalReport> {
    return this.reports.get(ws, id);
  }
}
