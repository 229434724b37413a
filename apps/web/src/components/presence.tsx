import { useRepositories } from '../api/queries';
import { useRealtime } from '../realtime/realtime-provider';
import { ActivityIcon } from './icons';

const STATUS_TEXT = { connected: 'live', connecting: 'connecting…', reconnecting: 'reconnecting…', refused: 'live updates refused' } as const;

/** Who is connected to this workspace right now, and the socket's state. */
export function Presence({ me }: { me: string }) {
  const { presence, status, statusDetail } = useRealtime();
  return (
    <div className="presence" aria-label="connected teammates">
      <span className={`conn conn-${status}`} title={statusDetail ?? undefined} role="status">
        <span className="conn-dot" aria-hidden="true" />
        {STATUS_TEXT[status]}
      </span>
      <ul className="people">
        {presence.map((m) => (
          <li key={m.principal} className={m.principal === me ? 'person me' : 'person'} title={`${m.name ?? displayPrincipal(m.principal)}${m.principal === me ? ' (you)' : ''} · ${m.connections} tab${m.connections === 1 ? '' : 's'}`}>
            <span className="avatar" aria-hidden="true">
              {initials(m.name ?? m.principal)}
            </span>
            <span className="person-name">{m.name ?? displayPrincipal(m.principal)}</span>
            {m.connections > 1 && <span className="muted small">×{m.connections}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Keys show as `key:<uuid>`: shorten to the first block so the bar stays readable. */
export function displayPrincipal(principal: string): string {
  const m = /^key:([0-9a-f]{8})-[0-9a-f-]+$/.exec(principal);
  return m ? `key ${m[1]}` : principal;
}

function initials(principal: string): string {
  if (principal.startsWith('key:')) return 'K';
  const name = principal.replace(/^[a-z]+:/, '');
  const parts = name.split(/[\s._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

/** Live feed of the workspace's indexing, rating and weight events. */
export function ActivityFeed() {
  const { activity, presence } = useRealtime();
  // Entries name people by principal (`key:<id>`): show the key's name when the member is here, else a short id.
  const names = new Map(presence.filter((m) => m.name).map((m) => [m.principal, m.name!]));
  const readable = (text: string) => text.replace(/key:[0-9a-f]{8}-[0-9a-f-]{27}/g, (p) => names.get(p) ?? displayPrincipal(p));
  const repos = useRepositories();
  const repoName = (id: string) => repos.data?.find((r) => r.id === id)?.name ?? `repository ${id.slice(0, 8)}`;
  return (
    <aside className="activity" aria-labelledby="activity-title">
      <h2 id="activity-title">Team activity</h2>
      {activity.length === 0 ? (
        <p className="muted small">Indexing progress, ratings and weight changes from everyone in this workspace appear here as they happen.</p>
      ) : (
        <ol className="activity-list" aria-live="polite">
          {activity.map((a) => (
            <li key={a.id} className={a.tone ? `tone-${a.tone}` : undefined}>
              <span className="activity-icon" aria-hidden="true">
                <ActivityIcon kind={a.kind} negative={a.negative} />
              </span>
              <span className="activity-text">{readable(a.repoId ? a.text.replace('{repo}', repoName(a.repoId)) : a.text)}</span>
              <time className="muted small" dateTime={new Date(a.at).toISOString()}>
                {new Date(a.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })}
              </time>
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}
