import type { ApiKey, CreateApiKeyRequest, CreatedApiKey, WeightsResponse } from '@sextant/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ComponentType, type FormEvent } from 'react';
import { api, errorText, isNotFound } from '../api/client';
import { queryKeys, type Me } from '../api/queries';
import { sourceLabel } from '../components/source-badges';
import { ExternalSourcesSettings } from '../components/external-sources-settings';

const keysKey = ['keys'] as const;

/**
 * One section of the settings page. Sections are independent components listed in
 * {@link SETTINGS_SECTIONS}; a new section (for example external MCP sources) is a new entry.
 */
export interface SettingsSection {
  id: string;
  title: string;
  /** Hidden from roles that cannot use it (the API refuses them anyway). */
  visible?: (me: Me) => boolean;
  Component: ComponentType<{ me: Me }>;
}

export const SETTINGS_SECTIONS: SettingsSection[] = [
  { id: 'workspace', title: 'Workspace', Component: WorkspaceSection },
  { id: 'api-keys', title: 'API keys', visible: (me) => me.role === 'admin', Component: ApiKeysSection },
  { id: 'weights', title: 'Fusion weights', Component: WeightsSection },
  { id: 'external-sources', title: 'External MCP sources', visible: (me) => me.role === 'admin', Component: ExternalSourcesSettings },
];

export function SettingsPage({ me }: { me: Me }) {
  const sections = SETTINGS_SECTIONS.filter((s) => s.visible?.(me) ?? true);
  return (
    <section className="page settings-page" aria-labelledby="settings-title">
      <h1 id="settings-title">Settings</h1>
      {sections.map(({ id, title, Component }) => (
        <section key={id} className="card settings-section" aria-labelledby={`settings-${id}`} data-section={id}>
          <h2 id={`settings-${id}`}>{title}</h2>
          <Component me={me} />
        </section>
      ))}
      {me.role !== 'admin' && <p className="muted small">API keys are managed by workspace admins.</p>}
    </section>
  );
}

function WorkspaceSection({ me }: { me: Me }) {
  return (
    <dl className="facts">
      <dt>Name</dt>
      <dd>{me.workspace.name}</dd>
      <dt>Slug</dt>
      <dd className="mono">{me.workspace.slug}</dd>
      <dt>Id</dt>
      <dd className="mono small">{me.workspace.id}</dd>
      <dt>You</dt>
      <dd>
        {me.principal_name ?? me.principal} · {me.role}
        {me.local_mode ? ' · local mode (this server listens on loopback only and needs no key)' : ''}
      </dd>
    </dl>
  );
}

function ApiKeysSection({ me }: { me: Me }) {
  const qc = useQueryClient();
  const keys = useQuery({ queryKey: keysKey, queryFn: async () => (await api<{ keys: ApiKey[] }>('/v1/keys')).keys });
  const create = useMutation({
    mutationFn: (body: CreateApiKeyRequest) => api<CreatedApiKey>('/v1/keys', { method: 'POST', body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keysKey }),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api<ApiKey>(`/v1/keys/${id}`, { method: 'DELETE' }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keysKey }),
  });
  const [name, setName] = useState('');
  const [role, setRole] = useState<CreateApiKeyRequest['role']>('member');
  const [confirming, setConfirming] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return;
    create.mutate({ name: name.trim(), role }, { onSuccess: () => setName('') });
  };
  const active = keys.data?.filter((k) => !k.revoked_at) ?? [];
  const revoked = keys.data?.filter((k) => k.revoked_at) ?? [];
  return (
    <>
      <form className="form-row" onSubmit={submit} aria-label="create an API key">
        <label className="grow">
          <span className="visually-hidden">Key name</span>
          <input id="key-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="name (who or what uses it: dana, ci-bot)" maxLength={200} />
        </label>
        <label>
          Role{' '}
          <select id="key-role" value={role} onChange={(e) => setRole(e.target.value as CreateApiKeyRequest['role'])}>
            <option value="reader">reader (search)</option>
            <option value="member">member (+ rate, index)</option>
            <option value="admin">admin (+ repositories, keys)</option>
          </select>
        </label>
        <button type="submit" className="primary" disabled={!name.trim() || create.isPending}>
          {create.isPending ? 'Creating…' : 'Create key'}
        </button>
      </form>
      {create.error && (
        <p className="text-error" role="alert">
          {errorText(create.error)}
        </p>
      )}
      {create.data && (
        <div className="new-key notice" role="status">
          <p>
            Key <strong>{create.data.name}</strong> ({create.data.role}) created. Copy it now: it is shown only once.
          </p>
          <code className="secret mono">{create.data.key}</code>
          <button type="button" className="small" onClick={() => create.reset()}>
            Done
          </button>
        </div>
      )}
      {keys.isPending && <p className="muted">Loading keys…</p>}
      {keys.error && <p className="text-error">{errorText(keys.error)}</p>}
      {keys.data && active.length === 0 && <p className="muted small">No active key. Local mode needs none; a server reachable from other machines requires one per person or tool.</p>}
      {active.length > 0 && (
        <table className="keys">
          <thead>
            <tr>
              <th scope="col">name</th>
              <th scope="col">role</th>
              <th scope="col">key</th>
              <th scope="col">last used</th>
              <th scope="col">
                <span className="visually-hidden">actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {active.map((k) => (
              <tr key={k.id} data-key-name={k.name}>
                <th scope="row">
                  {k.name}
                  {me.principal === `key:${k.id}` && <span className="muted small"> (you)</span>}
                </th>
                <td>{k.role}</td>
                <td className="mono small">{k.prefix}…</td>
                <td className="small">{k.last_used_at ? new Date(k.last_used_at).toLocaleString() : 'never'}</td>
                <td>
                  {confirming === k.id ? (
                    <span className="confirm">
                      <button type="button" className="danger" disabled={revoke.isPending} onClick={() => revoke.mutate(k.id, { onSettled: () => setConfirming(null) })}>
                        Revoke {k.name}
                      </button>
                      <button type="button" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="ghost danger-text" onClick={() => setConfirming(k.id)}>
                      Revoke…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoke.error && <p className="text-error">{errorText(revoke.error)}</p>}
      {revoked.length > 0 && (
        <details className="revoked-keys">
          <summary className="muted small">{revoked.length} revoked</summary>
          <ul className="small">
            {revoked.map((k) => (
              <li key={k.id}>
                {k.name} ({k.role}) · revoked {new Date(k.revoked_at!).toLocaleString()}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

function WeightsSection() {
  const weights = useQuery({ queryKey: queryKeys.weights, queryFn: () => api<WeightsResponse>('/v1/weights?history_limit=200'), retry: (n, err) => !isNotFound(err) && n < 2 });
  if (weights.isPending) return <p className="muted">Loading…</p>;
  if (weights.error) return <p className="text-error">{errorText(weights.error)}</p>;
  const sources = [...new Set(weights.data.classes.flatMap((c) => Object.keys(c.current.weights)))];
  return (
    <>
      <p className="muted small">
        How much each source counts in the fused ranking, by query class (shares of the total). Ratings move them; the Insights tab shows how they changed.
      </p>
      <div className="table-scroll">
        <table className="weights-table">
          <thead>
            <tr>
              <th scope="col">query class</th>
              {sources.map((s) => (
                <th scope="col" key={s} className="num">
                  {sourceLabel(s)}
                </th>
              ))}
              <th scope="col">version</th>
            </tr>
          </thead>
          <tbody>
            {weights.data.classes.map((c) => {
              const w = c.current.weights as Record<string, number>;
              const total = Object.values(w).reduce((a, b) => a + b, 0) || 1;
              return (
                <tr key={c.query_class} data-query-class={c.query_class}>
                  <th scope="row">{c.query_class}</th>
                  {sources.map((s) => (
                    <td key={s} className="num" title={`raw weight ${(w[s] ?? 0).toFixed(3)}`}>
                      {Math.round(((w[s] ?? 0) / total) * 100)}%
                    </td>
                  ))}
                  <td className="small">
                    v{c.current.version} · {c.current.origin}
                    {c.current.pinned ? ' · pinned' : ''}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
