export type Role = 'admin' | 'member' | 'reader';

/** Who is calling and in which workspace; the workspace always comes from the credential. */
export interface AuthContext {
  workspaceId: string;
  role: Role;
  /** `local` in local mode, else `key:<api key id>`. */
  principal: string;
}

export interface RequestWithAuth {
  auth?: AuthContext;
}
