import { z } from 'zod';
import { RoleSchema } from './api-keys';
import { NextCursorSchema, pageQueryShape } from './pagination';

export const WorkspaceSlugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be 1-63 lower-case letters, digits or dashes, starting with a letter or digit');

export const CreateWorkspaceRequestSchema = z
  .object({
    slug: WorkspaceSlugSchema,
    name: z.string().trim().min(1).max(200).optional(),
  })
  .strict();
export type CreateWorkspaceRequest = z.infer<typeof CreateWorkspaceRequestSchema>;

export const WorkspaceSchema = z.object({
  id: z.string().uuid(),
  slug: WorkspaceSlugSchema,
  name: z.string(),
  createdAt: z.string(),
});
export type WorkspaceResponse = z.infer<typeof WorkspaceSchema>;

/** `GET /v1/workspaces`: oldest first. */
// Not strict: the route took no query before paging, so parameters it ignored must stay harmless.
export const ListWorkspacesQuerySchema = z.object({ ...pageQueryShape(100, 500) });
export type ListWorkspacesQuery = z.infer<typeof ListWorkspacesQuerySchema>;

export const WorkspaceListResponseSchema = z.object({ workspaces: z.array(WorkspaceSchema), next_cursor: NextCursorSchema });
export type WorkspaceListResponse = z.infer<typeof WorkspaceListResponseSchema>;

/** `GET /v1/auth/me`: who a key is. */
export const AuthMeResponseSchema = z.object({
  workspace: WorkspaceSchema,
  role: RoleSchema,
  principal: z.string(),
  /** The key's name (null in local mode). */
  principal_name: z.string().nullable(),
  /** True when the server runs without keys (bound to loopback, no keys created). */
  local_mode: z.boolean(),
});
export type AuthMeResponse = z.infer<typeof AuthMeResponseSchema>;

/** `GET /health`: 200 while the database is up (`degraded` when another dependency is down), 503 otherwise. */
export const HealthResponseSchema = z.object({
  status: z.enum(['healthy', 'degraded']),
  version: z.string(),
  uptime_s: z.number().int(),
  dependencies: z.record(z.string(), z.object({ status: z.enum(['up', 'down']) }).catchall(z.unknown())),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
