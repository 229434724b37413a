import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EvalReport, EvalReportSummary, PageQuery } from '@sextant/contracts';
import { Repository } from 'typeorm';
import { DomainError, DomainErrorCode, notFound } from '../../common/domain-error';
import { decodePageCursor, pageFromRows } from '../../common/page-cursor';
import { EvalReportEntity } from './eval-report.entity';

/** What `eval run --publish` stores: the summary without the fields the store assigns. */
export type EvalReportDraft = Omit<EvalReportSummary, 'id' | 'published_by' | 'created_at'> & { chart_svg: string };

/** Published evaluation reports, per workspace, newest first. */
@Injectable()
export class EvalReportsService {
  constructor(@InjectRepository(EvalReportEntity) private readonly rows: Repository<EvalReportEntity>) {}

  async publish(workspaceId: string, draft: EvalReportDraft, publishedBy: string): Promise<EvalReport> {
    const { title, chart_svg, ...summary } = draft;
    const row = this.rows.create({ id: randomUUID(), workspaceId, title: title.slice(0, 300), summary: JSON.stringify(summary), chartSvg: chart_svg, publishedBy: publishedBy.slice(0, 64), createdAt: new Date() });
    await this.rows.insert(row);
    return toReport(row);
  }

  /** Newest first, a page at a time. */
  async list(workspaceId: string, query: PageQuery): Promise<{ reports: EvalReportSummary[]; next_cursor: string | null }> {
    const offset = decodePageCursor(query.cursor);
    // The chart (tens of KB each) is only sent by `latest` and `get`.
    const rows = await this.rows.find({ select: { id: true, title: true, summary: true, publishedBy: true, createdAt: true }, where: { workspaceId }, order: { createdAt: 'DESC', id: 'DESC' }, skip: offset, take: query.limit + 1 });
    const page = pageFromRows(rows, query.limit, offset);
    return { reports: page.items.map((r) => toSummary(r)), next_cursor: page.next_cursor };
  }

  async latest(workspaceId: string): Promise<EvalReport> {
    const row = await this.rows.findOne({ where: { workspaceId }, order: { createdAt: 'DESC', id: 'DESC' } });
    if (!row) throw new DomainError(DomainErrorCode.NotFound, 'No evaluation report has been published to this workspace yet: run `sextant eval run --dataset <dir> --publish <workspace>`');
    return toReport(row);
  }

  async get(workspaceId: string, id: string): Promise<EvalReport> {
    const row = await this.rows.findOne({ where: { workspaceId, id } });
    if (!row) throw notFound('Evaluation report', id);
    return toReport(row);
  }
}

function toSummary(r: EvalReportEntity): EvalReportSummary {
  const summary = JSON.parse(r.summary) as Omit<EvalReportSummary, 'id' | 'title' | 'published_by' | 'created_at'>;
  return { id: r.id, title: r.title, ...summary, published_by: r.publishedBy, created_at: r.createdAt.toISOString() };
}

function toReport(r: EvalReportEntity): EvalReport {
  return { ...toSummary(r), chart_svg: r.chartSvg };
}
