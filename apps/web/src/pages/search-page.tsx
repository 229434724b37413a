import type { SearchResult } from '@sextant/contracts';
import { useCallback, useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { errorText } from '../api/client';
import { rateResult, useMyRatings, useRecordRatingInCache, type Rating } from '../api/feedback';
import { useRepositories } from '../api/queries';
import { ResultCard, ResultPlaceholder, type RatingStatus } from '../components/result-card';
import { ExternalResults } from '../components/external-result-card';
import { sourceLabel } from '../components/source-badges';
import { useStreamedSearch, type SearchOptions, type StreamedSearch } from '../realtime/use-streamed-search';
import { hashFor } from '../lib/hash-route';

const STRATEGIES = ['weighted', 'rrf', 'cascade', 'vote', 'concat'] as const;
/** The query box grows with a pasted report up to this many lines, then scrolls. */
const MAX_INPUT_ROWS = 8;
const SOURCES = ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword', 'file.graph'] as const;
const splitList = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Everything the search form holds, as it travels in the URL (`#/search?q=…&strategy=…`). */
interface SearchForm {
  query: string;
  strategy: (typeof STRATEGIES)[number];
  granularity: 'file' | 'chunk';
  topK: number;
  langs: string;
  include: string;
  exclude: string;
  repo: string;
  sources: string[];
}

const DEFAULT_FORM: SearchForm = { query: '', strategy: 'weighted', granularity: 'file', topK: 10, langs: '', include: '', exclude: '', repo: '', sources: [...SOURCES] };

function formFromParams(p: URLSearchParams): SearchForm {
  const strategy = STRATEGIES.find((s) => s === p.get('strategy')) ?? DEFAULT_FORM.strategy;
  const top = Number(p.get('top'));
  const sources = p.get('sources') ? splitList(p.get('sources')!).filter((x) => (SOURCES as readonly string[]).includes(x)) : [];
  return {
    query: p.get('q') ?? '',
    strategy,
    granularity: p.get('granularity') === 'chunk' ? 'chunk' : 'file',
    topK: Number.isInteger(top) && top >= 1 && top <= 50 ? top : DEFAULT_FORM.topK,
    langs: p.get('langs') ?? '',
    include: p.get('include') ?? '',
    exclude: p.get('exclude') ?? '',
    repo: p.get('repo') ?? '',
    sources: sources.length ? sources : [...SOURCES],
  };
}

/** Only what differs from the defaults goes in the URL, so shared links stay short. */
export function searchHash(f: SearchForm): string {
  return hashFor('search', {
    q: f.query.trim(),
    strategy: f.strategy !== DEFAULT_FORM.strategy ? f.strategy : undefined,
    granularity: f.granularity !== DEFAULT_FORM.granularity ? f.granularity : undefined,
    top: f.topK !== DEFAULT_FORM.topK ? f.topK : undefined,
    repo: f.repo,
    langs: f.langs.trim(),
    include: f.include.trim(),
    exclude: f.exclude.trim(),
    sources: f.sources.length && f.sources.length < SOURCES.length ? f.sources.join(',') : undefined,
  });
}

export function SearchPage({ params }: { params: URLSearchParams }) {
  const { state, run, cancel, connection } = useStreamedSearch();
  const repos = useRepositories();
  const [initial] = useState(() => formFromParams(params));
  const [query, setQuery] = useState(initial.query);
  const [strategy, setStrategy] = useState<(typeof STRATEGIES)[number]>(initial.strategy);
  const [granularity, setGranularity] = useState<'file' | 'chunk'>(initial.granularity);
  const [topK, setTopK] = useState(initial.topK);
  const [langs, setLangs] = useState(initial.langs);
  const [include, setInclude] = useState(initial.include);
  const [exclude, setExclude] = useState(initial.exclude);
  const [repo, setRepo] = useState(initial.repo);
  const [sources, setSources] = useState<string[]>(initial.sources);
  const [filtersOpen, setFiltersOpen] = useState(Boolean(initial.langs || initial.include || initial.exclude || initial.sources.length < SOURCES.length));
  /** The URL of the search on screen: a hash change to anything else (back button, pasted link) runs that search. */
  const shownHash = useRef<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const cardRefs = useRef(new Map<string, HTMLElement>());

  const myRatings = useMyRatings(state.searchId);
  const recordInCache = useRecordRatingInCache();
  const [ratingStatus, setRatingStatus] = useState<Record<string, RatingStatus>>({});
  useEffect(() => setRatingStatus({}), [state.searchId]);

  useEffect(() => inputRef.current?.focus(), []);

  const runForm = useCallback(
    (f: SearchForm) => {
      const q = f.query.trim();
      if (!q) return;
      const filters: NonNullable<SearchOptions['filters']> = {};
      if (f.langs.trim()) filters.langs = splitList(f.langs);
      if (f.include.trim()) filters.include = splitList(f.include);
      if (f.exclude.trim()) filters.exclude = splitList(f.exclude);
      if (f.repo) filters.repos = [f.repo];
      const options: SearchOptions = { top_k: f.topK, strategy: f.strategy, granularity: f.granularity };
      if (Object.keys(filters).length) options.filters = filters;
      if (f.sources.length && f.sources.length < SOURCES.length) options.sources = f.sources as SearchOptions['sources'];
      run(q, options);
    },
    [run],
  );

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const form: SearchForm = { query, strategy, granularity, topK, langs, include, exclude, repo, sources };
    if (!query.trim()) return;
    const hash = searchHash(form);
    shownHash.current = hash;
    if (window.location.hash !== hash) window.location.hash = hash;
    runForm(form);
  };

  // A link or reload with a query runs it once the socket has had its chance to connect (REST otherwise).
  const paramsKey = params.toString();
  const [waitedForSocket, setWaitedForSocket] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setWaitedForSocket(true), 1500);
    return () => clearTimeout(t);
  }, []);
  useEffect(() => {
    const hash = searchHash(formFromParams(new URLSearchParams(paramsKey)));
    if (hash === shownHash.current) return;
    const f = formFromParams(new URLSearchParams(paramsKey));
    if (!f.query.trim()) return;
    if (connection === 'connecting' && !waitedForSocket) return;
    shownHash.current = hash;
    setQuery(f.query);
    setStrategy(f.strategy);
    setGranularity(f.granularity);
    setTopK(f.topK);
    setLangs(f.langs);
    setInclude(f.include);
    setExclude(f.exclude);
    setRepo(f.repo);
    setSources(f.sources);
    runForm(f);
  }, [paramsKey, connection, waitedForSocket, runForm]);

  const rate = useCallback(
    async (result: SearchResult, rating: Rating) => {
      const searchId = state.searchId;
      if (!searchId) return;
      setRatingStatus((s) => ({ ...s, [result.id]: { state: 'saving' } }));
      try {
        const res = await rateResult(searchId, result.id, rating);
        recordInCache(searchId, result.id, Math.sign(res.rating) as Rating);
        setRatingStatus((s) => ({ ...s, [result.id]: { state: 'saved', outcome: res.learning.outcome, weightsVersion: res.learning.weights_version } }));
      } catch (err) {
        setRatingStatus((s) => ({ ...s, [result.id]: { state: 'error', message: errorText(err) } }));
      }
    },
    [state.searchId, recordInCache],
  );

  const ratingOf = (id: string): Rating => myRatings.data?.[id] ?? 0;

  // Arrow keys move between results; +/- rate the focused one.
  const onListKeyDown = (e: KeyboardEvent<HTMLOListElement>) => {
    const target = e.target as HTMLElement;
    const card = target.closest<HTMLElement>('.result[data-result-id]');
    if (!card) return;
    const ids = state.results.map((r) => r.id);
    const i = ids.indexOf(card.dataset.resultId!);
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const next = ids[Math.max(0, Math.min(ids.length - 1, i + (e.key === 'ArrowDown' ? 1 : -1)))];
      cardRefs.current.get(next)?.focus();
    } else if ((e.key === '+' || e.key === '=' || e.key === '-') && target === card) {
      e.preventDefault();
      const result = state.results[i];
      if (!result || !state.searchId) return;
      const wanted: Rating = e.key === '-' ? -1 : 1;
      void rate(result, ratingOf(result.id) === wanted ? 0 : wanted);
    } else if (e.key === 'Escape') {
      inputRef.current?.focus();
    }
  };

  const streaming = state.status === 'streaming';
  const placeholders = streaming ? Math.max(0, state.topK - state.results.length) : 0;

  return (
    <section className="page" aria-labelledby="search-title">
      <h1 id="search-title" className="visually-hidden">
        Search
      </h1>
      <form className="search-form" onSubmit={submit} role="search">
        <div className="search-row">
          <label htmlFor="search-input" className="visually-hidden">
            Search code and task history
          </label>
          {/* A textarea so a pasted issue report keeps its lines (title, traceback frames); Enter searches, Shift+Enter adds a line. */}
          <textarea
            id="search-input"
            ref={inputRef}
            rows={Math.min(MAX_INPUT_ROWS, query.split('\n').length)}
            placeholder="Where is session refresh handled?  (press / to focus; paste a whole issue report, Shift+Enter for a new line)"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
                e.preventDefault();
                e.currentTarget.form?.requestSubmit();
              } else if (e.key === 'ArrowDown' && state.results[0] && !query.includes('\n')) {
                e.preventDefault();
                cardRefs.current.get(state.results[0].id)?.focus();
              }
            }}
          />
          <button type="submit" className="primary" disabled={!query.trim()}>
            Search
          </button>
          {streaming && (
            <button type="button" onClick={cancel}>
              Cancel
            </button>
          )}
        </div>
        <div className="search-options">
          <label>
            Strategy{' '}
            <select value={strategy} onChange={(e) => setStrategy(e.target.value as typeof strategy)} aria-label="fusion strategy">
              {STRATEGIES.map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </label>
          <label>
            Results{' '}
            <select value={granularity} onChange={(e) => setGranularity(e.target.value as 'file' | 'chunk')}>
              <option value="file">files</option>
              <option value="chunk">chunks</option>
            </select>
          </label>
          <label>
            Top{' '}
            <input type="number" min={1} max={50} value={topK} onChange={(e) => setTopK(Math.max(1, Math.min(50, Number(e.target.value) || 10)))} className="narrow" />
          </label>
          <label>
            Repository{' '}
            <select value={repo} onChange={(e) => setRepo(e.target.value)}>
              <option value="">all</option>
              {repos.data?.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          <details className="filters" open={filtersOpen} onToggle={(e) => setFiltersOpen((e.target as HTMLDetailsElement).open)}>
            <summary>Filters</summary>
            <div className="filters-body">
              <label>
                Languages <input value={langs} onChange={(e) => setLangs(e.target.value)} placeholder="typescript, python" />
              </label>
              <label>
                Include <input value={include} onChange={(e) => setInclude(e.target.value)} placeholder="src/**" />
              </label>
              <label>
                Exclude <input value={exclude} onChange={(e) => setExclude(e.target.value)} placeholder="**/*.test.ts" />
              </label>
              <fieldset>
                <legend>Sources</legend>
                {SOURCES.map((s) => (
                  <label key={s} className="check">
                    <input type="checkbox" checked={sources.includes(s)} onChange={(e) => setSources((cur) => (e.target.checked ? [...cur, s] : cur.filter((x) => x !== s)))} /> {sourceLabel(s)}
                  </label>
                ))}
              </fieldset>
            </div>
          </details>
        </div>
      </form>

      <div className="search-status" aria-live="polite" data-status={state.status}>
        {state.status === 'idle' && <span className="muted">Type a question or an identifier. Keys: / search · ↑↓ results · + / − rate · Esc back to the box</span>}
        {state.status !== 'idle' && (
          <>
            <ul className="source-progress" aria-label="sources">
              {(sources.length ? sources : SOURCES).map((s) => {
                const done = state.sourcesDone.includes(s) || (state.status === 'done' && !state.sourcesPending.includes(s));
                return (
                  <li key={s} className={done ? 'done' : streaming ? 'pending' : 'skipped'}>
                    {done ? '✓' : streaming ? '…' : '–'} {sourceLabel(s)}
                  </li>
                );
              })}
            </ul>
            <span className="muted status-text">
              {streaming && `streaming · ${state.results.length} results so far`}
              {state.status === 'done' && `${state.results.length} results · ${state.queryClass ?? ''} query · ${state.strategy ?? ''}${state.timings.total !== undefined ? ` · ${Math.round(state.timings.total)} ms` : ''}${state.transport === 'rest' ? ' · via REST' : ''}`}
              {state.status === 'error' && <span className="text-error">{state.error}</span>}
            </span>
          </>
        )}
      </div>
      {state.limits.length > 0 && (
        <ul className="limits" aria-label="degradations">
          {state.limits.map((l, i) => (
            <li key={i}>{l}</li>
          ))}
        </ul>
      )}
      {state.status === 'done' && state.match === 'weak' && (
        <p className="weak-match" role="status">
          {weakMatchText(state.matchReason, state.results[0]?.score, state.unknownTerms)} Try identifiers, file names or other words.
        </p>
      )}
      {state.status === 'done' && state.results.length === 0 && <p className="empty">Nothing found. Try other words, fewer filters, or check that a repository is indexed.</p>}

      <ol className="results" aria-label="results" aria-busy={streaming} onKeyDown={onListKeyDown} data-search-id={state.searchId ?? ''}>
        {state.results.map((r) => (
          <li key={r.id}>
            <ResultCard
              ref={(el) => {
                if (el) cardRefs.current.set(r.id, el);
                else cardRefs.current.delete(r.id);
              }}
              result={r}
              weak={state.status === 'done' && state.match === 'weak' && (state.matchReason ?? 'embedding_only') === 'embedding_only'}
              query={state.query}
              rating={ratingOf(r.id)}
              ratingStatus={ratingStatus[r.id] ?? { state: 'idle' }}
              canRate={Boolean(state.searchId)}
              onRate={(rating) => void rate(r, rating)}
            />
          </li>
        ))}
        {Array.from({ length: placeholders }, (_, i) => (
          <li key={`ph${i}`}>
            <ResultPlaceholder />
          </li>
        ))}
      </ol>
      <ExternalResults results={state.external} />
    </section>
  );
}

/** The banner's sentence for each weak-match reason (the wording of `describeWeakMatch` in contracts; the dashboard takes only types from there). */
function weakMatchText(reason: StreamedSearch['matchReason'], topScore: number | undefined, unknownTerms: readonly string[]): string {
  if (reason === 'low_relevance') return `Weak match: words matched, but the learned ranker gives the best result only a ${((topScore ?? 0) * 100).toFixed(1)} % chance of being a file a past task like this changed.`;
  if (reason === 'unknown_terms') return `Weak match: most of the query's words${unknownTerms.length ? ` (${unknownTerms.join(', ')})` : ''} appear nowhere in the indexed code or its history; the results match only the rest.`;
  return 'Weak match: no keyword, symbol or past-task hit — these are only the nearest embeddings.';
}
