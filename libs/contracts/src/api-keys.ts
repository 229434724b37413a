import { z } from 'zod';
import { NextCursorSchema, pageQueryShape } from './pagination';

export const RoleSchema = z.enum(['admin', 'member', 'reader']);

/** `POST /v1/keys`: the key is created in the caller's workspace. */
export const CreateApiKeyRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(200),
    role: RoleSchema,
  })
  .strict();
export type CreateApiKeyRequest = z.infer<typeof CreateApiKeyRequestSchema>;

/** A key as listed: never its secret or hash. */
export const ApiKeySchema = z.object({
  id: z.string().uuid(),
  workspace_id: z.string().uuid(),
  name: z.string(),
  role: RoleSchema,
  /** `sxt_<prefix>_…`: enough to recognise a key, not to use it. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** The creation response: the only time the full key is returned. */
export const CreatedApiKeySchema = ApiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

/** `GET /v1/keys`: oldest first. */
// Not strict: the route took no query before paging, so parameters it ignored must stay harmless.
export const ListApiKeysQuerySchema = z.object({ ...pageQueryShape(100, 500) });
export type ListApiKeysQuery = z.infer<typeof ListApiKeysQuerySchema>;

export const ApiKeyListResponseSchema = z.object({ keys: z.array(ApiKeySchema), next_cursor: NextCursorSchema });
export type ApiKeyListResponse = z.infer<typeof ApiKeyListResponseSchema>;
