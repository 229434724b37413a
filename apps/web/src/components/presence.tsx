import { useRealtime, type ActivityItem } from '../realtime/realtime-provider';

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
          <li key={m.principal} className={m.principal === me ? 'person me' : 'person'} title={`${m.principal}${m.principal === me ? ' (you)' : ''} · ${m.connections} tab${m.connections === 1 ? '' : 's'}`}>
            <span className="avatar" aria-hidden="true">
              {initials(m.principal)}
            </span>
            <span className="person-name">{m.principal}</span>
            {m.connections > 1 && <span className="muted small">×{m.connections}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

function initials(principal: string): string {
  const name = principal.replace(/^[a-z]+:/, '');
  const parts = name.split(/[\s._-]+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '?') + (parts[1]?.[0] ?? '')).toUpperCase();
}

const ICON: Record<ActivityItem['kind'], string> = { index: '⟳', feedback: '★', weights: '⚖', presence: '●' };

/** Live feed of the workspace's indexing, rating and weight events. */
export function ActivityFeed() {
  const { activity } = useRealtime();
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
                {ICON[a.kind]}
              </span>
              <span className="activity-text">{a.text}</span>
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
