import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { setApiKey, useApiKey } from './api/api-key.store';
import { errorText, isUnauthenticated } from './api/client';
import { fetchMe, queryKeys, type Me } from './api/queries';
import { BrandMark } from './components/icons';
import { KeyPrompt } from './components/key-prompt';
import { ActivityFeed, displayPrincipal, Presence } from './components/presence';
import { PAGES, useHashRoute } from './lib/hash-route';
import { useTheme } from './lib/theme';
import { AskPage } from './pages/ask-page';
import { FilePage } from './pages/file-page';
import { InsightsPage } from './pages/insights-page';
import { RepositoriesPage } from './pages/repositories-page';
import { SearchPage } from './pages/search-page';
import { SettingsPage } from './pages/settings-page';
import { TasksPage } from './pages/tasks-page';
import { RealtimeProvider } from './realtime/realtime-provider';

/** Checks who we are (local mode, or the stored key), asks for a key when needed, then shows the dashboard. */
export function App() {
  const key = useApiKey();
  const me = useQuery({ queryKey: [...queryKeys.me, key], queryFn: () => fetchMe(), retry: (n, err) => !isUnauthenticated(err) && n < 2, staleTime: 5 * 60_000 });
  if (me.isPending) return <p className="boot muted">Connecting to Sextant…</p>;
  if (me.error) {
    if (isUnauthenticated(me.error)) return <KeyPrompt refused={Boolean(key)} />;
    return (
      <main className="boot">
        <p className="text-error" role="alert">
          {errorText(me.error)}
        </p>
        <button type="button" onClick={() => void me.refetch()}>
          Retry
        </button>
      </main>
    );
  }
  return <Dashboard me={me.data} apiKey={key} />;
}

function Dashboard({ me, apiKey }: { me: Me; apiKey: string | null }) {
  return (
    <RealtimeProvider token={apiKey}>
      <Shell me={me} apiKey={apiKey} />
    </RealtimeProvider>
  );
}

function Shell({ me, apiKey }: { me: Me; apiKey: string | null }) {
  const route = useHashRoute();
  const [theme, cycleTheme] = useTheme();
  const qc = useQueryClient();

  // "/" focuses the search box from anywhere (except while typing in a field).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement;
      if (t.closest('input, textarea, select, [contenteditable="true"]')) return;
      e.preventDefault();
      const box = document.getElementById('search-input');
      if (box) return box.focus();
      window.location.hash = '#/search';
      requestAnimationFrame(() => document.getElementById('search-input')?.focus());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [route.page]);

  const forgetKey = () => {
    setApiKey(null);
    qc.clear();
  };

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <a className="brand" href="#/search">
          <BrandMark /> Sextant
        </a>
        <nav aria-label="sections">
          <ul className="nav">
            {PAGES.map((p) => (
              <li key={p.page}>
                <a href={`#/${p.page}`} aria-current={route.page === p.page ? 'page' : undefined}>
                  {p.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <Presence me={me.principal} />
        <div className="topbar-end">
          <span className="identity small" title={`${me.principal} in workspace ${me.workspace.slug}`}>
            {me.principal_name ?? displayPrincipal(me.principal)} · {me.role}
            {me.local_mode ? ' · local mode' : ''}
          </span>
          <button type="button" className="ghost" onClick={cycleTheme} aria-label={`theme: ${theme} (change)`} title="Theme: system → light → dark">
            {theme === 'dark' ? '☾' : theme === 'light' ? '☀' : '◐'} <span className="small">{theme}</span>
          </button>
          {apiKey && (
            <button type="button" className="ghost small" onClick={forgetKey}>
              Forget key
            </button>
          )}
        </div>
      </header>
      <div className="layout">
        <main id="main" tabIndex={-1}>
          {route.page === 'search' && <SearchPage params={route.params} />}
          {route.page === 'file' && <FilePage params={route.params} />}
          {route.page === 'ask' && <AskPage />}
          {route.page === 'repos' && <RepositoriesPage role={me.role} />}
          {route.page === 'tasks' && <TasksPage focusTaskId={route.params.get('id')} canImport={me.role !== 'reader'} />}
          {route.page === 'insights' && <InsightsPage />}
          {route.page === 'settings' && <SettingsPage me={me} />}
        </main>
        <ActivityFeed />
      </div>
    </div>
  );
}
