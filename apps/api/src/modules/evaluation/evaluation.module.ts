import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EvalReportEntity } from './eval-report.entity';
import { EvalReportsController } from './eval-reports.controller';
import { EvalReportsService } from './eval-reports.service';

/**
 * Published evaluation reports. The evaluation itself (EvaluationService) runs in the CLI
 * against a throw-away workspace; `--publish` stores its scores here for the dashboard.
 */
@Module({
  imports: [TypeOrmModule.forFeature([EvalReportEntity])],
  controllers: [EvalReportsController],
  providers: [EvalReportsService],
  exports: [EvalReportsService],
})
export class EvaluationModule {}
