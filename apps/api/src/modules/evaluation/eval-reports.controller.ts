import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { EvalReport, EvalReportListResponse } from '@sextant/contracts';
import { RequireRole } from '../auth/role.decorator';
import { CurrentWorkspace } from '../workspaces/current-workspace.decorator';
import { EvalReportsService } from './eval-reports.service';

/** Evaluation reports published to the caller's workspace (`sextant eval run --publish`). */
@ApiTags('evaluation')
@Controller('v1/eval/reports')
export class EvalReportsController {
  constructor(private readonly reports: EvalReportsService) {}

  /** The 20 newest reports, without charts. */
  @Get()
  @RequireRole('reader')
  async list(@CurrentWorkspace() ws: string): Promise<EvalReportListResponse> {
    return { reports: await this.reports.list(ws) };
  }

  /** The newest report with its chart; 404 when none was published. */
  @Get('latest')
  @RequireRole('reader')
  latest(@CurrentWorkspace() ws: string): Promise<EvalReport> {
    return this.reports.latest(ws);
  }

  @Get(':id')
  @RequireRole('reader')
  get(@CurrentWorkspace() ws: string, @Param('id', new ParseUUIDPipe()) id: string): Promise<EvalReport> {
    return this.reports.get(ws, id);
  }
}
