import { useSyncExternalStore } from 'react';

export type Page = 'search' | 'ask' | 'repos' | 'tasks' | 'insights' | 'settings' | 'file';
/** The tabs, in order. Pages reached only by link (the file view) are not tabs. */
export const PAGES: ReadonlyArray<{ page: Page; label: string }> = [
  { page: 'search', label: 'Search' },
  { page: 'ask', label: 'Ask' },
  { page: 'repos', label: 'Repositories' },
  { page: 'tasks', label: 'Tasks' },
  { page: 'insights', label: 'Insights' },
  { page: 'settings', label: 'Settings' },
];
const LINK_ONLY_PAGES: readonly Page[] = ['file'];

export interface Route {
  page: Page;
  params: URLSearchParams;
}

/** `#/tasks?id=…` -> { page: 'tasks', params }; anything unknown is the search page. */
export function parseHash(hash: string): Route {
  const [path, qs = ''] = hash.replace(/^#\/?/, '').split('?');
  const page = PAGES.find((p) => p.page === path)?.page ?? LINK_ONLY_PAGES.find((p) => p === path) ?? 'search';
  return { page, params: new URLSearchParams(qs) };
}

/** `#/page?params`, skipping empty values. */
export function hashFor(page: Page, params: Record<string, string | number | undefined | null> = {}): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `#/${page}${s ? `?${s}` : ''}`;
}

const subscribe = (cb: () => void) => {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
};

export function useHashRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash, () => '');
  return parseHash(hash);
}
