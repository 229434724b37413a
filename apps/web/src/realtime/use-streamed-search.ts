/**
 * Runs a search over the socket (`search:start` → `search:partial`* → `search:done`), or
 * over REST when the socket is down, and exposes the fused ranking as it grows.
 */
import type { ExternalResult, SearchDoneEvent, SearchRequest, SearchResponse, SearchResult } from '@sextant/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api, errorText } from '../api/client';
import { useRealtime } from './realtime-provider';

export type SearchOptions = Omit<SearchRequest, 'query'>;

export interface StreamedSearch {
  status: 'idle' | 'streaming' | 'done' | 'error';
  query: string;
  topK: number;
  results: SearchResult[];
  /** External MCP sources' results (not files of an indexed repository). */
  external: ExternalResult[];
  sourcesDone: string[];
  sourcesPending: string[];
  limits: string[];
  /** Known once the search is done: `weak` when only embedding similarity links the results to the query, or the learned ranker rates the best one unlikely. */
  match: SearchResponse['match'] | null;
  /** Why a weak match is weak (`embedding_only` or `low_relevance`). */
  matchReason: SearchResponse['match_reason'] | null;
  /** Words of the query no indexed file or past task holds (with `unknown_terms`). */
  unknownTerms: string[];
  /** Known once the search is done; ratings refer to it. */
  searchId: string | null;
  queryClass: SearchDoneEvent['query_class'] | null;
  strategy: string | null;
  timings: Record<string, number>;
  error: string | null;
  transport: 'socket' | 'rest' | null;
  /** Partials received so far (shown so users see the stream). */
  partials: number;
}

const IDLE: StreamedSearch = { status: 'idle', query: '', topK: 10, results: [], external: [], sourcesDone: [], sourcesPending: [], limits: [], match: null, matchReason: null, unknownTerms: [], searchId: null, queryClass: null, strategy: null, timings: {}, error: null, transport: null, partials: 0 };

let requestSeq = 0;
const newRequestId = () => `web-${Date.now().toString(36)}-${(++requestSeq).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export function useStreamedSearch() {
  const { socket, status: connection } = useRealtime();
  const [state, setState] = useState<StreamedSearch>(IDLE);
  const current = useRef<string | null>(null);
  const restAbort = useRef<AbortController | null>(null);

  useEffect(() => {
    if (!socket) return;
    const mine = (id: string | null) => id !== null && id === current.current;
    const onPartial: Parameters<typeof socket.on<'search:partial'>>[1] = (e) => {
      if (!mine(e.request_id)) return;
      setState((s) => ({ ...s, results: e.results, external: e.external ?? [], sourcesDone: e.sources_done, sourcesPending: e.sources_pending, limits: e.limits, partials: s.partials + 1 }));
    };
    const onDone: Parameters<typeof socket.on<'search:done'>>[1] = (e) => {
      if (!mine(e.request_id)) return;
      current.current = null;
      setState((s) => ({ ...s, status: 'done', results: e.results, external: e.external ?? [], limits: e.limits, match: e.match, matchReason: e.match_reason ?? null, unknownTerms: e.unknown_terms ?? [], sourcesPending: [], searchId: e.search_id, queryClass: e.query_class, strategy: e.strategy, timings: e.timings_ms }));
    };
    const onError: Parameters<typeof socket.on<'search:error'>>[1] = (e) => {
      if (!mine(e.request_id)) return;
      current.current = null;
      setState((s) => ({ ...s, status: 'error', error: e.message }));
    };
    socket.on('search:partial', onPartial);
    socket.on('search:done', onDone);
    socket.on('search:error', onError);
    return () => {
      socket.off('search:partial', onPartial);
      socket.off('search:done', onDone);
      socket.off('search:error', onError);
    };
  }, [socket]);

  const run = useCallback(
    (query: string, options: SearchOptions) => {
      const topK = options.top_k ?? 10;
      const all = options.sources ?? ['file.dense', 'file.keyword', 'file.symbol', 'task.dense', 'task.keyword', 'file.graph'];
      restAbort.current?.abort();
      const requestId = newRequestId();
      current.current = requestId;
      setState({ ...IDLE, status: 'streaming', query, topK, sourcesPending: [...all], transport: socket?.connected ? 'socket' : 'rest' });
      if (socket?.connected) {
        socket.emit('search:start', { request_id: requestId, query, options });
        return;
      }
      const abort = new AbortController();
      restAbort.current = abort;
      api<SearchResponse>('/v1/search', { method: 'POST', body: { ...options, query }, signal: abort.signal }).then(
        (res) => {
          if (current.current !== requestId) return;
          current.current = null;
          setState((s) => ({ ...s, status: 'done', results: res.results, external: res.external ?? [], limits: res.limits, match: res.match, matchReason: res.match_reason ?? null, unknownTerms: res.unknown_terms ?? [], sourcesDone: [...all], sourcesPending: [], searchId: res.search_id, queryClass: res.query_class, strategy: res.strategy, timings: res.timings_ms }));
        },
        (err: unknown) => {
          if (current.current !== requestId || (err as Error).name === 'AbortError') return;
          current.current = null;
          setState((s) => ({ ...s, status: 'error', error: errorText(err) }));
        },
      );
    },
    [socket],
  );

  const cancel = useCallback(() => {
    const id = current.current;
    if (!id) return;
    current.current = null;
    restAbort.current?.abort();
    socket?.emit('search:cancel', { request_id: id });
    setState((s) => ({ ...s, status: s.results.length ? 'done' : 'idle', sourcesPending: [], error: null }));
  }, [socket]);

  return { state, run, cancel, connection };
}
