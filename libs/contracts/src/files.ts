import { z } from 'zod';
import { RepositoryPathSchema } from './repository-path';

/** `GET /v1/repos/:id/file?path=…`: which indexed file to read. */
export const RepositoryFileQuerySchema = z
  .object({
    path: RepositoryPathSchema,
  })
  .strict();
export type RepositoryFileQuery = z.infer<typeof RepositoryFileQuerySchema>;

/** Where a file lives on its code host (GitHub, GitLab, Bitbucket) at the indexed commit. */
export const CodeHostFileSchema = z.object({
  kind: z.enum(['github', 'gitlab', 'bitbucket']),
  /** The file at the commit; add a line anchor (`#L10-L12`, GitLab `#L10-12`, Bitbucket `#lines-10:12`) to point at lines. */
  url: z.string(),
});
export type CodeHostFileLink = z.infer<typeof CodeHostFileSchema>;

/** The whole text of one indexed file, for the dashboard's file view. */
export const RepositoryFileSchema = z.object({
  repository_id: z.string(),
  repository_name: z.string(),
  path: z.string(),
  lang: z.string().nullable(),
  content: z.string(),
  /** Bytes on disk now. */
  size: z.number().int(),
  indexed_at: z.string().nullable(),
  indexed_commit: z.string().nullable(),
  /** True when the file on disk differs from what was indexed (search line numbers may be off until the next index run). */
  changed_since_index: z.boolean(),
  /** Null when the repository has no remote on a web code host, or no indexed commit. */
  code_host: CodeHostFileSchema.nullable(),
});
export type RepositoryFile = z.infer<typeof RepositoryFileSchema>;

/** The largest file the file view returns whole. */
export const MAX_FILE_VIEW_BYTES = 2 * 1024 * 1024;
