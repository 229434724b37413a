import { z } from 'zod';

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
