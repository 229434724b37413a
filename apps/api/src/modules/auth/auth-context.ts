export type Role = 'admin' | 'member' | 'reader';

/** Every role, weakest first: each role may do everything the roles before it may. */
export const ROLES: readonly Role[] = ['reader', 'member', 'admin'];

/** True when `role` includes the permissions of `required`. */
export const roleAtLeast = (role: Role, required: Role): boolean => ROLES.indexOf(role) >= ROLES.indexOf(required);

/** Who is calling and in which workspace; the workspace always comes from the credential. */
export interface AuthContext {
  workspaceId: string;
  role: Role;
  /** `local` in local mode, else `key:<api key id>`. */
  principal: string;
  /** The API key's name (what teammates see in presence), when the caller used a key. */
  name?: string;
}

export interface RequestWithAuth {
  auth?: AuthContext;
}
