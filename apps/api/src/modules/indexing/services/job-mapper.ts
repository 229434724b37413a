import type { IndexJob } from '@sextant/contracts';
import type { IndexJobEntity } from '../entities/index-job.entity';

/** Row -> wire shape, with rate and ETA derived from the counts. */
export function mapIndexJob(row: IndexJobEntity, now = Date.now()): IndexJob {
  const c = row.counts;
  const elapsedS = row.startedAt ? Math.max(0.001, ((row.finishedAt?.getTime() ?? now) - row.startedAt.getTime()) / 1000) : 0;
  const rate = elapsedS > 0 ? Math.round((c.processed / elapsedS) * 10) / 10 : 0;
  const remaining = Math.max(0, c.toIndex - c.processed);
  const eta_s = row.status === 'running' && rate > 0 ? Math.round(remaining / rate) : row.status === 'succeeded' ? 0 : null;
  return {
    id: row.id,
    repository_id: row.repositoryId,
    kind: row.kind,
    status: row.status,
    phase: row.phase,
    counts: c,
    errors: row.errors.slice(0, 200),
    rate,
    eta_s,
    error: row.error,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    resumed: row.attempts > 1,
  };
}
