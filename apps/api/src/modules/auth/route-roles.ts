import type { Role } from './auth-context';

export type RouteAccess = Role | 'public';

/**
 * Roles for routes whose controllers live in other modules and do not carry
 * `@RequireRole`/`@Public` (a decorator on the handler or controller always wins).
 * Keeping them here means the whole access policy of the REST surface is in one file.
 *
 * | who | may |
 * |---|---|
 * | reader | search, fetch, read repositories, jobs, tasks, weights |
 * | member | + rate results, import tasks, start/cancel indexing |
 * | admin  | + register/change/remove repositories, manage keys and settings |
 */
export const ROUTE_ROLES: ReadonlyArray<{ method: string; path: string; access: RouteAccess }> = [
  { method: 'GET', path: '/health', access: 'public' },
  { method: 'GET', path: '/metrics', access: 'public' },
  // Repositories are managed by admins; indexing is a member action.
  { method: 'POST', path: '/v1/repos', access: 'admin' },
  { method: 'PATCH', path: '/v1/repos/:id', access: 'admin' },
  { method: 'DELETE', path: '/v1/repos/:id', access: 'admin' },
  { method: 'POST', path: '/v1/repos/:id/index', access: 'member' },
  { method: 'POST', path: '/v1/jobs/:id/cancel', access: 'member' },
  // Reads that use POST because their input is a body.
  { method: 'POST', path: '/v1/search', access: 'reader' },
  { method: 'POST', path: '/v1/search/stream', access: 'reader' },
  { method: 'POST', path: '/v1/fetch', access: 'reader' },
  { method: 'POST', path: '/mcp', access: 'reader' },
  // Settings.
  { method: 'PUT', path: '/v1/settings', access: 'admin' },
  { method: 'PATCH', path: '/v1/settings', access: 'admin' },
  { method: 'PUT', path: '/v1/fusion/weights', access: 'admin' },
  { method: 'POST', path: '/v1/fusion/weights/reset', access: 'admin' },
];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The access a request needs: the route's decorator, else its ROUTE_ROLES entry, else
 * `reader` for reads and `member` for writes.
 */
export function requiredAccess(method: string, routePath: string | undefined, decorated: { isPublic?: boolean; role?: Role }): RouteAccess {
  if (decorated.isPublic) return 'public';
  if (decorated.role) return decorated.role;
  const m = method.toUpperCase();
  const path = normalisePath(routePath);
  const entry = path === undefined ? undefined : ROUTE_ROLES.find((r) => r.method === m && r.path === path);
  if (entry) return entry.access;
  return READ_METHODS.has(m) ? 'reader' : 'member';
}

function normalisePath(p: string | undefined): string | undefined {
  if (!p) return undefined;
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
