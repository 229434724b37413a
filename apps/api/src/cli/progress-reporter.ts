import type { IndexJob } from '@sextant/contracts';
import { SingleBar } from 'cli-progress';

/** A progress bar on a TTY, plain periodic lines otherwise (CI logs, pipes). */
export class ProgressReporter {
  private bar?: SingleBar;
  private lastLine = 0;

  constructor(
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly intervalMs = 2000,
  ) {}

  update(job: IndexJob): void {
    const total = Math.max(job.counts.toIndex, 1);
    const eta = job.eta_s === null ? '?' : `${job.eta_s}s`;
    if (this.out.isTTY) {
      const payload = { phase: job.phase.padEnd(8), chunks: job.counts.chunks, rate: job.rate, etaText: job.phase === 'done' ? '0s' : eta };
      if (!this.bar) {
        this.bar = new SingleBar(
          // noTTYOutput: cli-progress checks the stream itself; ours may be a TTY it does not recognise.
          { format: ' {phase} |{bar}| {value}/{total} files | {chunks} chunks | {rate} files/s | ETA {etaText}', hideCursor: true, stream: this.out, clearOnComplete: false, noTTYOutput: true, notTTYSchedule: 0 },
          undefined,
        );
        // The first frame is drawn at start: give it the values, or it shows the raw {placeholders}.
        this.bar.start(total, job.counts.processed, payload);
      }
      this.bar.setTotal(total);
      this.bar.update(job.counts.processed, payload);
      return;
    }
    const now = Date.now();
    if (now - this.lastLine < this.intervalMs && job.phase !== 'done') return;
    this.lastLine = now;
    this.out.write(`[${job.phase}] ${job.counts.processed}/${job.counts.toIndex} files, ${job.counts.chunks} chunks, ${job.rate} files/s, ETA ${eta}\n`);
  }

  /** Draws the job's final state (so the bar ends at its real count, not the last progress event's) and stops. */
  finish(job: IndexJob): void {
    if (this.bar || !this.out.isTTY) this.update(job);
    this.stop();
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}

/** The end-of-job summary: files indexed/skipped (by reason)/failed, chunks by type, time, throughput. */
export function formatJobSummary(job: IndexJob): string {
  const c = job.counts;
  const seconds = job.started_at && job.finished_at ? (Date.parse(job.finished_at) - Date.parse(job.started_at)) / 1000 : 0;
  const skipped = Object.entries(c.skippedByReason).filter(([, n]) => n > 0);
  const lines = [
    `Index job ${job.id}: ${job.status}${job.resumed ? ' (resumed after an interruption)' : ''}`,
    `  files: ${c.discovered} discovered, ${c.indexed} indexed, ${c.unchanged} unchanged, ${c.removed} removed, ${c.failed} failed, ${c.parseFallbacks} parsed as line windows`,
    `  skipped: ${skipped.length ? skipped.map(([r, n]) => `${r} ${n}`).join(', ') : 'none'}`,
    `  chunks: ${c.chunks}${Object.keys(c.chunksByType).length ? ` (${Object.entries(c.chunksByType).map(([t, n]) => `${t} ${n}`).join(', ')})` : ''}; embedded ${c.embedded}, cache hits ${c.cacheHits}`,
    `  time: ${seconds.toFixed(1)} s, ${seconds > 0 ? Math.round(c.processed / seconds) : 0} files/s, ${seconds > 0 ? Math.round(c.chunks / seconds) : 0} chunks/s`,
  ];
  const phases = Object.entries(c.phaseMs ?? {}).filter(([, ms]) => ms >= 1);
  if (phases.length) lines.push(`  time by phase: ${phases.map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  if (job.error) lines.push(`  error: ${job.error}`);
  for (const e of job.errors.slice(0, 10)) lines.push(`  ! ${e.path}: ${e.message}`);
  if (job.errors.length > 10) lines.push(`  … and ${job.errors.length - 10} more file errors`);
  return lines.join('\n');
}
