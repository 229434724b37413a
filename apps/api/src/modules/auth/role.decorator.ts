import { SetMetadata } from '@nestjs/common';
import type { Role } from './auth-context';

export const REQUIRED_ROLE = 'sextant:required-role';
export const PUBLIC_ROUTE = 'sextant:public-route';

/**
 * The least role a route needs; the global AuthGuard enforces it. Without it, GET/HEAD
 * routes need `reader` and every other method `member` (see route-roles.ts).
 *
 * @example
 * @Post('search') @RequireRole('reader') search(...) {}
 */
export const RequireRole = (role: Role) => SetMetadata(REQUIRED_ROLE, role);

/** A route anyone may call without a key (health checks, metrics, docs). */
export const Public = () => SetMetadata(PUBLIC_ROUTE, true);
