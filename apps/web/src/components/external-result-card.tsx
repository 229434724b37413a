import type { ExternalResult } from '@sextant/contracts';
import { RerankBadge } from './rerank-badge';

const PREVIEW_LINES = 6;

/** One result from an external MCP server: title, the server and tool that found it, its URL, a preview. */
export function ExternalResultCard({ result }: { result: ExternalResult }) {
  const preview = result.text.split('\n').slice(0, PREVIEW_LINES).join('\n');
  return (
    <article className="result external-result" style={{ height: 'auto', minHeight: 0 }} tabIndex={0} aria-label={`External result ${result.rank}: ${result.title}`} data-external-id={result.id} data-source={result.search_source}>
      <header className="result-head">
        <span className="result-rank">E{result.rank}</span>
        <span className="result-path" title={result.title}>
          {result.title}
        </span>
        <span className="badge" title={`found by ${result.metadata.mcp_tool} on ${result.metadata.mcp_server} (priority ${result.priority})`}>
          {result.search_source}
        </span>
        {result.rerank ? <RerankBadge verdict={result.rerank} /> : null}
      </header>
      {result.source ? (
        <a className="external-url mono small" href={result.source} target="_blank" rel="noreferrer noopener">
          {result.source}
        </a>
      ) : (
        <span className="muted small">no URL</span>
      )}
      <pre className="external-preview small">{preview}</pre>
    </article>
  );
}

/** The external results of a search, below the indexed ones; nothing when there are none. */
export function ExternalResults({ results }: { results: ExternalResult[] }) {
  if (!results.length) return null;
  return (
    <section className="external-results" aria-label="external results">
      <h2 className="small">From external sources (not in the index)</h2>
      <ol className="results">
        {results.map((r) => (
          <li key={r.id}>
            <ExternalResultCard result={r} />
          </li>
        ))}
      </ol>
    </section>
  );
}
