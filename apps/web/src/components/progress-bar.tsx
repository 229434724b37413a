import type { IndexJob } from '@sextant/contracts';

export const isFinished = (job: IndexJob) => job.status === 'succeeded' || job.status === 'failed' || job.status === 'cancelled';

/** Percentage of the job's files done: 100 only when the job succeeded. */
export function jobPercent(job: IndexJob): number {
  if (job.status === 'succeeded') return 100;
  const { toIndex, processed } = job.counts;
  if (toIndex <= 0) return 0;
  return Math.min(99, Math.floor((processed / toIndex) * 100));
}

export function formatEta(s: number | null): string {
  if (s === null) return '—';
  if (s < 60) return `${Math.round(s)} s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m} min ${Math.round(s % 60)} s` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** A live index job: bar, phase, counts, rate and ETA. */
export function ProgressBar({ job, label }: { job: IndexJob; label: string }) {
  const pct = jobPercent(job);
  const c = job.counts;
  const tone = job.status === 'failed' ? 'error' : job.status === 'cancelled' ? 'muted' : job.status === 'succeeded' ? 'ok' : 'active';
  return (
    <div className={`progress progress-${tone}`} data-job-status={job.status}>
      <div className="progress-head">
        <span className="progress-phase">
          {job.status === 'running' || job.status === 'queued' ? `${job.status} · ${job.phase}` : job.status}
          {job.resumed ? ' · resumed' : ''}
        </span>
        <span className="progress-pct">{pct} %</span>
      </div>
      <div className="progress-track" role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={pct} aria-valuetext={`${pct} %, ${job.status}, phase ${job.phase}`}>
        <div className="progress-fill" style={{ width: `${pct}%` }} />
      </div>
      <dl className="progress-stats">
        <div>
          <dt>files</dt>
          <dd>
            {c.processed}/{c.toIndex}
          </dd>
        </div>
        <div>
          <dt>indexed</dt>
          <dd>{c.indexed}</dd>
        </div>
        <div>
          <dt>unchanged</dt>
          <dd>{c.unchanged}</dd>
        </div>
        <div>
          <dt>chunks</dt>
          <dd>{c.chunks}</dd>
        </div>
        <div>
          <dt>failed</dt>
          <dd className={c.failed ? 'text-error' : undefined}>{c.failed}</dd>
        </div>
        <div>
          <dt>rate</dt>
          <dd>{job.rate} files/s</dd>
        </div>
        <div>
          <dt>ETA</dt>
          <dd>{isFinished(job) ? '—' : formatEta(job.eta_s)}</dd>
        </div>
      </dl>
      {job.error && <p className="text-error">{job.error}</p>}
    </div>
  );
}
