import type { FileSymbolsResponse, GraphSite, GraphSymbol, SymbolEdgesResponse } from '@sextant/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorText } from '../api/client';
import { hashFor } from '../lib/hash-route';

const SITES_SHOWN = 50;

/** The file view of `path` with 0-based lines `start..end` marked (the URL counts from 1, like an editor). */
function lineHref(repoId: string, path: string, start: number, end = start): string {
  return hashFor('file', { repo: repoId, path, lines: end > start ? `${start + 1}-${end + 1}` : `${start + 1}` });
}

const local = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);

/**
 * The definitions of a file from the code graph, each a link to its lines; opening one lists
 * where it is used (calls, references, imports — each a link to that line of that file) and
 * what it calls (each a link to the callee's definition).
 */
export function FileSymbols({ repoId, path }: { repoId: string; path: string }) {
  const symbols = useQuery({
    queryKey: ['file-symbols', repoId, path],
    enabled: Boolean(repoId && path),
    queryFn: () => api<FileSymbolsResponse>(`/v1/files/symbols?${new URLSearchParams({ repository: repoId, path, limit: '200' })}`),
  });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <section className="file-symbols card" aria-labelledby="file-symbols-title">
      <h2 id="file-symbols-title">Symbols</h2>
      {symbols.isPending && <p className="muted small">Loading…</p>}
      {symbols.error && <p className="muted small">{/not in the code graph/.test(errorText(symbols.error)) ? 'No code graph for this file (not a parsed language).' : errorText(symbols.error)}</p>}
      {symbols.data && symbols.data.symbols.length === 0 && <p className="muted small">This file defines nothing the graph knows.</p>}
      {symbols.data && symbols.data.symbols.length > 0 && (
        <ul className="symbol-list">
          {symbols.data.symbols.map((s) => (
            <li key={s.id} className="symbol-item">
              <div className="symbol-row">
                <a className="symbol-def mono" href={lineHref(repoId, s.path, s.range.start_line, s.range.end_line)} title={`${s.kind} ${s.qualified_name}, lines ${s.range.start_line + 1}-${s.range.end_line + 1}`}>
                  <span className="symbol-kind">{s.kind}</span> {local(s.qualified_name)}
                </a>
                <button type="button" className="symbol-toggle" aria-expanded={open === s.id} aria-controls={`uses-${s.id}`} onClick={() => setOpen((cur) => (cur === s.id ? null : s.id))}>
                  {open === s.id ? 'hide' : 'uses'}
                </button>
              </div>
              {open === s.id && <SymbolUses id={`uses-${s.id}`} repoId={repoId} symbol={s} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function SymbolUses({ id, repoId, symbol }: { id: string; repoId: string; symbol: GraphSymbol }) {
  const refs = useQuery({
    queryKey: ['symbol-references', symbol.id],
    queryFn: () => api<SymbolEdgesResponse>(`/v1/symbols/${encodeURIComponent(symbol.id)}/references?limit=${SITES_SHOWN}`),
  });
  const callees = useQuery({
    queryKey: ['symbol-callees', symbol.id],
    queryFn: () => api<SymbolEdgesResponse>(`/v1/symbols/${encodeURIComponent(symbol.id)}/callees?limit=${SITES_SHOWN}`),
  });
  return (
    <div id={id} className="symbol-uses">
      <h3>References</h3>
      {refs.isPending && <p className="muted small">Loading…</p>}
      {refs.error && <p className="text-error small">{errorText(refs.error)}</p>}
      {refs.data && refs.data.edges.length === 0 && <p className="muted small">Nothing in the indexed code uses it.</p>}
      {refs.data && refs.data.edges.length > 0 && (
        <ul className="symbol-sites" aria-label={`references to ${symbol.name}`}>
          {refs.data.edges.map((e) => (
            <li key={`${e.kind}:${e.path}:${e.line}:${e.column}:${e.symbol?.id ?? ''}`}>
              <a href={lineHref(repoId, e.path, e.line)} className="mono">
                {e.path}:{e.line + 1}
              </a>{' '}
              <span className="muted small">{siteLabel(e)}</span>
            </li>
          ))}
          {refs.data.next_cursor && <li className="muted small">more not shown</li>}
        </ul>
      )}
      <h3>Calls</h3>
      {callees.data && callees.data.edges.length === 0 && <p className="muted small">No call into the indexed code.</p>}
      {callees.data && callees.data.edges.length > 0 && (
        <ul className="symbol-sites" aria-label={`calls from ${symbol.name}`}>
          {callees.data.edges.map((e) =>
            e.symbol ? (
              <li key={`${e.line}:${e.column}:${e.symbol.id}`}>
                <a href={lineHref(repoId, e.symbol.path, e.symbol.range.start_line, e.symbol.range.end_line)} className="mono" title={e.symbol.qualified_name}>
                  {local(e.symbol.qualified_name)}
                </a>{' '}
                <span className="muted small">
                  line {e.line + 1}
                  {e.confidence < 1 ? ` · maybe (${Math.round(e.confidence * 100)} %)` : ''}
                </span>
              </li>
            ) : null,
          )}
        </ul>
      )}
    </div>
  );
}

function siteLabel(e: GraphSite): string {
  const who = e.symbol ? local(e.symbol.qualified_name) : 'top level';
  const what = e.kind === 'import' ? 'imports it' : e.kind === 'reference' ? `${who} refers to it` : `${who} calls it`;
  return e.confidence < 1 ? `${what} · maybe (${Math.round(e.confidence * 100)} %)` : what;
}
