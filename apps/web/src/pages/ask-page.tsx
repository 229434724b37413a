import type { AskCitation, AskClientToServerEvents, AskResponse, AskServerToClientEvents, AskStatus, AskStep } from '@sextant/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { Socket } from 'socket.io-client';
import { api, errorText } from '../api/client';
import { hashFor } from '../lib/hash-route';
import { useRealtime } from '../realtime/realtime-provider';
import { fileViewHash } from './file-page';

/** MAX_QUERY_CHARS of @sextant/contracts (the dashboard imports its types only); the server checks it too. */
const MAX_QUESTION_CHARS = 66_000;

type AskSocket = Socket<AskServerToClientEvents, AskClientToServerEvents>;

interface AskState {
  status: 'idle' | 'streaming' | 'done' | 'error' | 'cancelled';
  answer: string;
  steps: AskStep[];
  citations: AskCitation[];
  result: AskResponse | null;
  error: string | null;
}

const IDLE: AskState = { status: 'idle', answer: '', steps: [], citations: [], result: null, error: null };
let seq = 0;

/** Where a citation leads: the file view at the cited lines, or the task in the task list. */
export function citationHref(c: AskCitation): string {
  return c.kind === 'file' ? fileViewHash(c.repo_id, c.path, [{ start: c.start_line, end: c.end_line }]) : hashFor('tasks', { id: c.task_id });
}

/**
 * Ask: a question answered by the configured chat model from the fused search, streamed
 * over the socket (`ask:start` → steps, tokens, citations → `ask:done`), with every `[n]`
 * linked to the file lines or past task it cites. Without a chat model it says how to set one up.
 */
export function AskPage() {
  const status = useQuery({ queryKey: ['ask-status'], queryFn: () => api<AskStatus>('/v1/ask/status'), staleTime: 60_000 });
  const { socket: rawSocket } = useRealtime();
  const socket = rawSocket as unknown as AskSocket | null;
  const [question, setQuestion] = useState('');
  const [state, setState] = useState<AskState>(IDLE);
  const current = useRef<string | null>(null);

  useEffect(() => {
    if (!socket) return;
    const mine = (id: string | null) => id !== null && id === current.current;
    const onStep: AskServerToClientEvents['ask:step'] = (e) => mine(e.request_id) && setState((s) => ({ ...s, steps: [...s.steps, e] }));
    const onToken: AskServerToClientEvents['ask:token'] = (e) => mine(e.request_id) && setState((s) => ({ ...s, answer: s.answer + e.text }));
    const onCitation: AskServerToClientEvents['ask:citation'] = (e) => mine(e.request_id) && setState((s) => ({ ...s, citations: [...s.citations, e.citation] }));
    const onDone: AskServerToClientEvents['ask:done'] = (e) => {
      if (!mine(e.request_id)) return;
      current.current = null;
      setState((s) => ({ ...s, status: 'done', answer: e.answer, citations: e.citations, result: e }));
    };
    const onError: AskServerToClientEvents['ask:error'] = (e) => {
      if (!mine(e.request_id)) return;
      current.current = null;
      setState((s) => ({ ...s, status: 'error', error: e.detail ?? e.message }));
    };
    socket.on('ask:step', onStep);
    socket.on('ask:token', onToken);
    socket.on('ask:citation', onCitation);
    socket.on('ask:done', onDone);
    socket.on('ask:error', onError);
    return () => {
      socket.off('ask:step', onStep);
      socket.off('ask:token', onToken);
      socket.off('ask:citation', onCitation);
      socket.off('ask:done', onDone);
      socket.off('ask:error', onError);
    };
  }, [socket]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const query = question.trim();
    if (!query) return;
    const id = `ask-${Date.now().toString(36)}-${++seq}`;
    current.current = id;
    setState({ ...IDLE, status: 'streaming' });
    if (socket?.connected) return void socket.emit('ask:start', { request_id: id, query });
    // No socket: one JSON answer over REST.
    try {
      const res = await api<AskResponse>('/v1/ask', { method: 'POST', body: { query } });
      if (current.current !== id) return;
      current.current = null;
      setState({ status: 'done', answer: res.answer, steps: res.steps, citations: res.citations, result: res, error: null });
    } catch (err) {
      if (current.current === id) setState((s) => ({ ...s, status: 'error', error: errorText(err) }));
    }
  };

  const cancel = () => {
    const id = current.current;
    if (!id) return;
    socket?.emit('ask:cancel', { request_id: id });
    current.current = null;
    setState((s) => ({ ...s, status: 'cancelled' }));
  };

  if (status.isPending) return <p className="muted">Checking whether Ask is configured…</p>;
  if (status.error) return <p className="text-error">{errorText(status.error)}</p>;
  if (!status.data.enabled) {
    return (
      <section className="page ask-page" aria-labelledby="ask-title">
        <h1 id="ask-title">Ask</h1>
        <div className="empty" role="status" data-ask="disabled">
          <p>{status.data.message}</p>
          <pre className="code-block">{'CHAT_BASE_URL=http://localhost:11434/v1   # Ollama, vLLM, LM Studio, Azure …\nCHAT_MODEL=llama3.1\nCHAT_API_KEY=sk-…                          # OpenAI or a server that needs a key'}</pre>
          <p className="muted">Search, indexing and MCP work without it.</p>
        </div>
      </section>
    );
  }

  const byNumber = new Map((state.result?.sources ?? state.citations).map((c) => [c.n, c]));
  return (
    <section className="page ask-page" aria-labelledby="ask-title">
      <h1 id="ask-title">Ask</h1>
      <form className="search-form" onSubmit={submit}>
        <div className="search-row">
          <label htmlFor="ask-input" className="visually-hidden">
            Question
          </label>
          <input id="ask-input" type="text" value={question} onChange={(e) => setQuestion(e.target.value)} placeholder="How do we refresh login sessions?" autoComplete="off" maxLength={MAX_QUESTION_CHARS} style={{ flex: 1, minWidth: 0 }} />
          {state.status === 'streaming' ? (
            <button type="button" onClick={cancel}>
              Stop
            </button>
          ) : (
            <button type="submit" className="primary" disabled={!question.trim()}>
              Ask
            </button>
          )}
        </div>
        <p className="muted small">Answers come from {status.data.model}, grounded in this workspace's code and task history; every [n] links to its source.</p>
      </form>
      {state.steps.length > 0 && (
        <ol className="ask-steps small muted" aria-label="steps">
          {state.steps.map((s) => (
            <li key={s.n} data-kind={s.kind}>
              {s.kind === 'answer' ? 'answer' : `${s.by === 'model' ? 'model ' : ''}${s.kind} “${s.input}”`} → {s.sources.length ? s.sources.map((n) => `[${n}]`).join(' ') : (s.note ?? 'nothing')}
            </li>
          ))}
        </ol>
      )}
      <div className="ask-answer" aria-live="polite" aria-busy={state.status === 'streaming'} data-status={state.status}>
        {state.answer && <p className="ask-text">{linkCitations(state.answer, byNumber)}</p>}
        {state.status === 'streaming' && !state.answer && <p className="muted">Searching and reading…</p>}
        {state.status === 'error' && (
          <p className="text-error" role="alert">
            {state.error}
          </p>
        )}
        {state.status === 'cancelled' && <p className="muted">Stopped.</p>}
      </div>
      {state.citations.length > 0 && (
        <section aria-label="sources">
          <h2 className="small">Sources</h2>
          <ul className="ask-citations" style={{ listStyle: 'none', paddingLeft: 0 }}>
            {state.citations.map((c) => (
              <li key={c.n} id={`cite-${c.n}`} data-kind={c.kind}>
                [{c.n}] <a href={citationHref(c)}>{c.kind === 'file' ? `${c.repo_name ? `${c.repo_name}/` : ''}${c.label}` : `${c.task_id}: ${c.title}`}</a>
              </li>
            ))}
          </ul>
          {state.result && state.result.unknown_refs.length > 0 && <p className="muted small">The answer also cites {state.result.unknown_refs.map((n) => `[${n}]`).join(' ')}, which match no source.</p>}
        </section>
      )}
    </section>
  );
}

/** The answer with each known `[n]` turned into a link to its source. */
function linkCitations(text: string, sources: Map<number, AskCitation>): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/\[(\d{1,3})\]/g)) {
    const c = sources.get(Number(m[1]));
    if (!c) continue;
    out.push(text.slice(last, m.index));
    out.push(
      <a key={`${m.index}`} href={citationHref(c)} className="cite" title={c.label}>
        [{c.n}]
      </a>,
    );
    last = m.index! + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}
