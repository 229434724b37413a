import type { McpSource, McpSourceCreate, McpSourceTestResult } from '@sextant/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, errorText } from '../api/client';

const sourcesKey = ['mcp-sources'] as const;

/** `NAME=value` (env) or `Name: value` (headers), one per line. */
function parsePairs(text: string, separator: '=' | ':'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n').map((l) => l.trim()).filter(Boolean)) {
    const at = line.indexOf(separator);
    if (at > 0) out[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return out;
}

/**
 * Settings section: the workspace's external MCP servers (admins). Secret env and header
 * values are write-only: the API returns them masked.
 */
export function ExternalSourcesSettings() {
  const qc = useQueryClient();
  const sources = useQuery({ queryKey: sourcesKey, queryFn: async () => (await api<{ sources: McpSource[] }>('/v1/sources/mcp')).sources });
  const refresh = () => void qc.invalidateQueries({ queryKey: sourcesKey });
  const create = useMutation({ mutationFn: (body: McpSourceCreate) => api<McpSource>('/v1/sources/mcp', { method: 'POST', body }), onSuccess: refresh });
  const update = useMutation({ mutationFn: ({ id, body }: { id: string; body: Partial<McpSource> }) => api<McpSource>(`/v1/sources/mcp/${id}`, { method: 'PATCH', body }), onSuccess: refresh });
  const remove = useMutation({ mutationFn: (id: string) => api<McpSource>(`/v1/sources/mcp/${id}`, { method: 'DELETE' }), onSuccess: refresh });
  const [tests, setTests] = useState<Record<string, McpSourceTestResult | string>>({});
  const test = async (s: McpSource) => {
    setTests((t) => ({ ...t, [s.id]: 'testing…' }));
    try {
      const res = await api<McpSourceTestResult>(`/v1/sources/mcp/${s.id}/test`, { method: 'POST', body: { query: 'readme' } });
      setTests((t) => ({ ...t, [s.id]: res }));
    } catch (err) {
      setTests((t) => ({ ...t, [s.id]: errorText(err) }));
    }
  };

  const [name, setName] = useState('');
  const [kind, setKind] = useState<'http' | 'stdio'>('http');
  const [target, setTarget] = useState('');
  const [args, setArgs] = useState('');
  const [pairs, setPairs] = useState('');
  const [priority, setPriority] = useState('2');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const transport =
      kind === 'http'
        ? { type: 'http' as const, url: target.trim(), headers: parsePairs(pairs, ':') }
        : { type: 'stdio' as const, command: target.trim(), args: args.split(/\s+/).filter(Boolean), env: parsePairs(pairs, '=') };
    create.mutate({ name: name.trim(), transport, priority: Number(priority) }, { onSuccess: () => (setName(''), setTarget(''), setArgs(''), setPairs('')) });
  };

  return (
    <div className="external-sources-settings">
      <p className="muted small">Every enabled server is searched in parallel with the index (as <span className="mono">mcp.&lt;name&gt;</span>); its results are merged by priority (the index is 1).</p>
      {sources.isError && <p className="text-error">{errorText(sources.error)}</p>}
      <table className="table small" aria-label="MCP sources">
        <thead>
          <tr>
            <th>Source</th>
            <th>Server</th>
            <th>Priority</th>
            <th>Limit</th>
            <th>Timeout</th>
            <th>On</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(sources.data ?? []).map((s) => {
            const result = tests[s.id];
            return (
              <tr key={s.id} data-source={s.source}>
                <td className="mono">{s.source}</td>
                <td className="mono small">{s.transport.type === 'http' ? s.transport.url : [s.transport.command, ...s.transport.args].join(' ')}</td>
                <td>{s.priority}</td>
                <td>{s.result_limit}</td>
                <td>{s.timeout_ms} ms</td>
                <td>
                  <input type="checkbox" aria-label={`enable ${s.name}`} checked={s.enabled} onChange={(e) => update.mutate({ id: s.id, body: { enabled: e.target.checked } })} />
                </td>
                <td>
                  <button type="button" onClick={() => void test(s)}>
                    Test
                  </button>{' '}
                  <button type="button" onClick={() => remove.mutate(s.id)}>
                    Remove
                  </button>
                  {result && (
                    <div className="small" role="status">
                      {typeof result === 'string' ? result : result.ok ? `ok · ${result.search_tool} · ${result.results.length} result(s) in ${result.elapsed_ms} ms` : `failed: ${result.error}`}
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {sources.data?.length === 0 && <p className="muted small">No external sources yet.</p>}
      <form className="row-form" onSubmit={submit} aria-label="add MCP source">
        <input aria-label="name" placeholder="name (e.g. github)" value={name} onChange={(e) => setName(e.target.value)} required />
        <select aria-label="transport" value={kind} onChange={(e) => setKind(e.target.value as 'http' | 'stdio')}>
          <option value="http">Streamable HTTP</option>
          <option value="stdio">stdio command</option>
        </select>
        <input aria-label={kind === 'http' ? 'url' : 'command'} placeholder={kind === 'http' ? 'https://…/mcp' : '/usr/local/bin/github-mcp-server'} value={target} onChange={(e) => setTarget(e.target.value)} required />
        {kind === 'stdio' && <input aria-label="arguments" placeholder="arguments (e.g. stdio)" value={args} onChange={(e) => setArgs(e.target.value)} />}
        <textarea aria-label={kind === 'http' ? 'headers' : 'environment'} placeholder={kind === 'http' ? 'Authorization: Bearer …' : 'GITHUB_PERSONAL_ACCESS_TOKEN=…'} value={pairs} onChange={(e) => setPairs(e.target.value)} rows={2} />
        <input aria-label="priority" type="number" min={0} max={100} step={0.5} value={priority} onChange={(e) => setPriority(e.target.value)} />
        <button type="submit" disabled={create.isPending}>
          Add
        </button>
      </form>
      {create.isError && <p className="text-error">{errorText(create.error)}</p>}
      {(update.isError || remove.isError) && <p className="text-error">{errorText(update.error ?? remove.error)}</p>}
    </div>
  );
}
