import { useSyncExternalStore } from 'react';

export type Page = 'search' | 'repos' | 'tasks' | 'insights';
export const PAGES: ReadonlyArray<{ page: Page; label: string }> = [
  { page: 'search', label: 'Search' },
  { page: 'repos', label: 'Repositories' },
  { page: 'tasks', label: 'Tasks' },
  { page: 'insights', label: 'Insights' },
];

export interface Route {
  page: Page;
  params: URLSearchParams;
}

/** `#/tasks?id=…` -> { page: 'tasks', params }; anything unknown is the search page. */
export function parseHash(hash: string): Route {
  const [path, qs = ''] = hash.replace(/^#\/?/, '').split('?');
  const page = PAGES.find((p) => p.page === path)?.page ?? 'search';
  return { page, params: new URLSearchParams(qs) };
}

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

export function useHashRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash, () => '');
  return parseHash(hash);
}
