/**
 * The activity feed a newly opened tab starts with: what the team did before the tab
 * connected, rebuilt from REST (recent index jobs, ratings, fusion-weights versions), newest first.
 * Live socket events then add to it; an item with the same key is never shown twice.
 */
import type { FeedbackRecentResponse, IndexJob, WeightsResponse } from '@sextant/contracts';
import type { ActivityItem } from './realtime-provider';

export type ActivityDraft = Omit<ActivityItem, 'id'> & { key: string };

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

/** Activity items for jobs: finished ones as results, running ones as "Indexing …". */
export function jobActivity(job: IndexJob): ActivityDraft | null {
  const c = job.counts;
  if (FINISHED.has(job.status)) {
    const at = Date.parse(job.finished_at ?? job.started_at ?? job.created_at);
    if (job.status === 'succeeded') {
      return { key: `job:${job.id}:end`, at, kind: 'index', tone: 'ok', repoId: job.repository_id, text: `Indexed {repo}: ${c.indexed} files, ${c.chunks} chunks${c.failed ? `, ${c.failed} failed` : ''}` };
    }
    return { key: `job:${job.id}:end`, at, kind: 'index', tone: 'error', repoId: job.repository_id, text: `Indexing {repo} ${job.status}: ${job.error ?? 'error'}` };
  }
  const started = job.started_at ?? job.created_at;
  return started ? { key: `job:${job.id}:start`, at: Date.parse(started), kind: 'index', repoId: job.repository_id, text: `Indexing {repo} (${job.kind})` } : null;
}

export function weightsActivity(v: { query_class: string; version: number; origin: string }, at: number): ActivityDraft {
  return { key: `weights:${v.query_class}:${v.version}`, at, kind: 'weights', text: `Fusion weights for ${v.query_class} queries → v${v.version} (${v.origin})` };
}

/** A rating (from `GET /v1/feedback/recent` or a `feedback:recorded` event: the same key for both). */
export function feedbackActivity(r: { search_id: string; item_id: string; rating: number; principal: string; rated_at: string }): ActivityDraft {
  const verdict = r.rating > 0 ? 'helpful' : r.rating < 0 ? 'not relevant' : '(withdrawn)';
  return { key: `rating:${r.search_id}:${r.item_id}:${r.principal}:${r.rated_at}`, at: Date.parse(r.rated_at), kind: 'feedback', negative: r.rating < 0, text: `${r.principal} rated ${shortItem(r.item_id)} ${verdict}` };
}

/** `file:<repo>:<path>` -> the path; chunk ids stay as they are (shortened). */
export function shortItem(id: string): string {
  const m = /^file:[^:]+:(.+)$/.exec(id);
  return m ? m[1] : id.length > 16 ? `${id.slice(0, 8)}…` : id;
}

/** Recent jobs, ratings and stored weights versions (not the built-in defaults) as activity, newest first. */
export function activityFromHistory(jobs: readonly IndexJob[], weights: WeightsResponse | null, limit: number, ratings: FeedbackRecentResponse['ratings'] = []): ActivityDraft[] {
  const items: ActivityDraft[] = [];
  for (const r of ratings) {
    const item = feedbackActivity(r);
    if (Number.isFinite(item.at)) items.push(item);
  }
  for (const job of jobs) {
    const item = jobActivity(job);
    if (item && Number.isFinite(item.at)) items.push(item);
  }
  for (const c of weights?.classes ?? []) {
    for (const v of c.history) if (v.version > 0 && v.created_at) items.push(weightsActivity(v, Date.parse(v.created_at)));
  }
  return items.sort((a, b) => b.at - a.at).slice(0, limit);
}

/** Adds items to a feed (newest first), dropping keys it already shows. */
export function mergeActivity<T extends { key?: string; at: number }>(feed: readonly T[], add: readonly T[], limit: number): T[] {
  const seen = new Set(feed.map((i) => i.key).filter(Boolean));
  const fresh = add.filter((i) => !i.key || !seen.has(i.key));
  return [...feed, ...fresh].sort((a, b) => b.at - a.at).slice(0, limit);
}
