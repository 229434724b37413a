import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/**
 * Every migration, oldest first. Hand-written, reversible, never edited after they land;
 * `synchronize` is never used. They run at start-up and via `sextant db migrate`.
 */
export const migrations = [InitialSchema1763800000000];
