import type { SearchResult } from '@sextant/contracts';
import { forwardRef, memo } from 'react';
import type { Rating } from '../api/feedback';
import { fileViewHash } from '../pages/file-page';
import { CodeBlock } from './code-block';
import { RerankBadge } from './rerank-badge';
import { ThumbDown, ThumbUp } from './icons';
import { ScoreBreakdown, SourceBadges } from './source-badges';

export type RatingStatus = { state: 'idle' } | { state: 'saving' } | { state: 'saved'; outcome: string; weightsVersion: number } | { state: 'error'; message: string };

/** What the learner did with a rating, in words. */
const LEARNING_TEXT: Record<string, string> = {
  updated: 'weights updated',
  unchanged_rating: 'same as before',
  no_evidence: 'no source stood out, weights unchanged',
  pinned: 'weights are pinned',
  cap_reached: 'your rating limit for now is reached',
};

interface Props {
  result: SearchResult;
  rating: Rating;
  ratingStatus: RatingStatus;
  /** Ratings need the search id, which arrives with `search:done`. */
  canRate: boolean;
  onRate: (rating: Rating) => void;
  /** The search matched only by embedding similarity: scores are relative and say nothing about relevance. */
  weak?: boolean;
  /** The query, carried into the file view's link. */
  query?: string;
}

const RELATED_SHOWN = 2;

/**
 * One fused result at a fixed height (so streaming re-ranks never shift the page):
 * path and lines, source badges, score breakdown, the best chunk, related past tasks
 * and 👍/👎. Focusable; the list moves focus with the arrow keys and rates with +/-.
 */
export const ResultCard = memo(
  forwardRef<HTMLElement, Props>(function ResultCard({ result, rating, ratingStatus, canRate, onRate, weak = false, query }, ref) {
    const chunk = result.chunk ?? result.evidence[0] ?? null;
    // The API's lines are 0-based; people count from 1.
    const lines = chunk ? `L${chunk.start_line + 1}–${chunk.end_line + 1}` : '';
    const related = result.explain.related_tasks;
    // Every chunk that matched, as 1-based line ranges, so the file view marks them all.
    const hits = (result.evidence.length ? result.evidence : chunk ? [chunk] : []).map((c) => ({ start: c.start_line + 1, end: c.end_line + 1 })).sort((a, b) => a.start - b.start);
    const fileLink = fileViewHash(result.repo_id, result.path, hits, query);
    const ratingNote =
      ratingStatus.state === 'saving'
        ? 'saving…'
        : ratingStatus.state === 'error'
          ? ratingStatus.message
          : ratingStatus.state === 'saved'
            ? `${rating === 0 ? 'rating withdrawn' : 'rating recorded'} · ${LEARNING_TEXT[ratingStatus.outcome] ?? ratingStatus.outcome}${ratingStatus.outcome === 'updated' ? ` (v${ratingStatus.weightsVersion})` : ''}`
            : canRate
              ? ''
              : 'rating opens when the search finishes';
    return (
      <article ref={ref} className="result" tabIndex={0} aria-label={`Result ${result.rank}: ${result.path}`} data-result-id={result.id} data-path={result.path}>
        <header className="result-head">
          <span className="result-rank">{result.rank}</span>
          <a className="result-path" title={`Open ${result.path}`} href={fileLink} tabIndex={-1}>
            {result.repo_name && <span className="result-repo">{result.repo_name}/</span>}
            {result.path}
          </a>
          {lines && <span className="result-lines">{lines}</span>}
          {result.lang && <span className="result-lang">{result.lang}</span>}
          {chunk?.symbol && (
            <span className="result-symbol" title={chunk.symbol}>
              {chunk.symbol.startsWith(`${result.path}:`) ? chunk.symbol.slice(result.path.length + 1) : chunk.symbol}
            </span>
          )}
        </header>
        <div className="result-explain">
          <SourceBadges sources={result.explain.sources} />
          <ScoreBreakdown result={result} weak={weak} />
        </div>
        <ul className="result-reasons" aria-label="why it matched">
          {result.explain.hit_reasons.map((r, i) => (
            <li key={i} title={reasonHint(r)}>
              {r}
            </li>
          ))}
        </ul>
        <div className="result-code">{chunk ? <CodeBlock code={chunk.snippet} startLine={chunk.start_line + 1} lang={result.lang} path={result.path} label={`${result.path} ${lines}`} /> : <p className="muted">No chunk text for this file.</p>}</div>
        <div className="result-related" aria-label="why this file: related past tasks">
          <span className="result-related-title">Why this file</span>
          {related.length === 0 ? (
            <span className="muted">no similar past task touched it</span>
          ) : (
            <ul>
              {related.slice(0, RELATED_SHOWN).map((t) => (
                <li key={t.task_id} title={`${t.title} (similarity ${t.score.toFixed(2)})`}>
                  <a href={`#/tasks?id=${encodeURIComponent(t.task_id)}`} tabIndex={-1}>
                    {t.title}
                  </a>
                  {t.created_at && <span className="muted"> · {t.created_at.slice(0, 10)}</span>}
                </li>
              ))}
              {related.length > RELATED_SHOWN && <li className="muted">+{related.length - RELATED_SHOWN} more</li>}
            </ul>
          )}
        </div>
        <footer className="result-foot">
          <div className="rate" role="group" aria-label="rate this result">
            <button type="button" className="rate-btn" aria-pressed={rating === 1} disabled={!canRate} title="Helpful (+)" aria-label="helpful" onClick={() => onRate(rating === 1 ? 0 : 1)}>
              <ThumbUp />
            </button>
            <button type="button" className="rate-btn" aria-pressed={rating === -1} disabled={!canRate} title="Not relevant (−)" aria-label="not relevant" onClick={() => onRate(rating === -1 ? 0 : -1)}>
              <ThumbDown />
            </button>
          </div>
          <span className={`rate-note ${ratingStatus.state === 'error' ? 'text-error' : 'muted'}`} role="status">
            {ratingNote}
          </span>
          {weak ? (
            <span className="result-score weak" title={`relative score ${result.score.toFixed(3)}: only the nearest embeddings, nothing matched the words`}>
              weak match
            </span>
          ) : result.explain.ranker ? (
            // The learned ranker's scores are calibrated: the chance this file is one a past task like this query touched.
            <span
              className="result-score"
              title={`calibrated relevance ${result.score.toFixed(3)} (learned ranker v${result.explain.ranker.model_version}${result.explain.ranker.placed_by === 'all_changed' ? '; placed by its all-changed model, which lists what changes with the top files: the score is the probability of this place' : ''})${result.explain.title_search ? `: ${result.explain.title_search.title_score.toFixed(3)} for the title alone, ${result.explain.title_search.text_score.toFixed(3)} for the whole text` : ''}`}
            >
              {Math.round(result.score * 100)}% likely
            </span>
          ) : (
            <span className="result-score">{result.score.toFixed(3)}</span>
          )}
          {result.rerank ? <RerankBadge verdict={result.rerank} /> : null}
        </footer>
      </article>
    );
  }),
);

/** The same box, empty: keeps the list's height while sources are still answering. */
export function ResultPlaceholder() {
  return <div className="result result-placeholder" aria-hidden="true" />;
}

/** A plain-words hover text for the reasons that are not self-explanatory (the dashboard takes only types from contracts, so the reason's format is matched here). */
function reasonHint(reason: string): string | undefined {
  const lifted = /^report:code-first:(\d+)$/.exec(reason);
  if (lifted) return `The query reads as a problem report (code block, traceback, error line or prompt), so the first code file leads; it was #${lifted[1]}, behind tests or docs.`;
  const routine = /^history:routine:(\d+)\/(\d+):(\d+):(.*)$/s.exec(reason);
  if (reason === 'file:history-only') return 'Known from the task history only: past tasks changed this file, but its content is not indexed (a lockfile, build output or a file too large to read), so there is no preview.';
  if (routine) return `A routine change: ${routine[1]} of the last ${routine[2]} past changes like "${routine[4]}" touched this file, so it is kept in the top 10 (it was #${routine[3]}).`;
  const definition = /^definition:(.+):from_rank_(\d+)$/.exec(reason);
  if (definition) return `The query asks where ${definition[1]} is defined, and this file defines it, so it leads${definition[2] === '1' ? '' : ` (it was #${definition[2]}, behind files that only use it)`}.`;
  return undefined;
}
