import { ApiKeysService } from '../../src/modules/auth/api-keys.service';
import type { Role } from '../../src/modules/auth/auth-context';
import type { CreatedApiKey } from '../../src/modules/auth/dtos/api-key.dto';
import { WorkspacesService } from '../../src/modules/workspaces/workspaces.service';
import type { TestApp } from '../helpers/test-app';

/** Env for an app that is not in local mode (every request needs a key), as on a server bound to 0.0.0.0. */
export const KEYS_REQUIRED_ENV = { HOST: '0.0.0.0' };

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Creates (if needed) a workspace, the way `sextant workspaces create` does. */
export async function ensureWorkspace(t: TestApp, slug: string): Promise<string> {
  const workspaces = t.app.get(WorkspacesService);
  const existing = (await workspaces.list()).find((w) => w.slug === slug);
  return (existing ?? (await workspaces.create(slug))).id;
}

/** Creates a key the way `sextant keys create` does. */
export async function createKey(t: TestApp, slug: string, role: Role, name: string = role): Promise<CreatedApiKey> {
  return t.app.get(ApiKeysService).create(await ensureWorkspace(t, slug), { name, role });
}
