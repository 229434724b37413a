import { Inject, Injectable } from '@nestjs/common';
import { McpFetchInputSchema, McpFetchOutputSchema, type McpFetchObject, type McpFetchOutput } from '@sextant/contracts';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import type { z } from 'zod';
import { IndexingService } from '../../indexing/services/indexing.service';
import type { McpCallContext, McpTool, McpToolOutcome } from '../mcp-tool';
import { shareTokenBudget } from '../token-budget';
import { chunkTitle, chunkUrl } from './tool-format';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `fetch` (seed 004): the full text of chunks, in the requested order, within one token
 * budget for the whole response (~4 characters per token). Earlier objects are served
 * first; an object that does not fit is cut after its last whole line that does, with a
 * `… [truncated: N more lines]` marker; objects after the budget ran out come back with only
 * the marker, or empty when not even that fits (their title, url and metadata are always
 * there, so the model can fetch them alone). Ids that are not chunks of the caller's workspace are listed in `missing`.
 */
@Injectable()
export class FetchTool implements McpTool<typeof McpFetchInputSchema, typeof McpFetchOutputSchema> {
  readonly name = 'fetch' as const;
  readonly title = 'Read chunks by id';
  readonly description = [
    'Read the full text of chunks returned by `search` (or search_files_by_content / search_functions / search_classes / search_docs).',
    'Pass their ids in objectIds, most important first. Returns objects with id, title, url, content and metadata (0-based line and',
    'byte bounds, language). max_tokens (default 4000, ~4 characters per token) is shared by the whole response in order: when it',
    'runs out, content is cut at a line boundary and ends with "… [truncated: N more lines]" (later objects may come back empty) —',
    'fetch that id alone or raise max_tokens to read the rest. Unknown ids (for example from before a file was re-indexed) are',
    'listed in `missing`; search again for current ids.',
  ].join(' ');
  readonly input = McpFetchInputSchema;
  readonly output = McpFetchOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

  constructor(
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
    private readonly indexing: IndexingService,
  ) {}

  async run(args: z.output<typeof McpFetchInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpFetchOutput>> {
    const ids = [...new Set(args.objectIds)];
    const wellFormed = ids.filter((id) => UUID.test(id));
    const points = wellFormed.length ? await this.chunks.get(wellFormed, { workspaceId: ctx.auth.workspaceId }) : [];
    const byId = new Map(points.map((p) => [p.id, p.payload]));
    const names = new Map(points.length ? (await this.indexing.list(ctx.auth.workspaceId)).map((r) => [r.id, r.name]) : []);
    const found = ids.filter((id) => byId.has(id));
    const missing = ids.filter((id) => !byId.has(id));
    const budgeted = shareTokenBudget(
      found.map((id) => byId.get(id)!.content),
      { maxTokens: args.max_tokens },
    );
    const objects: McpFetchObject[] = found.map((id, i) => {
      const p = byId.get(id)!;
      return {
        id,
        title: chunkTitle(p.path, p.startLine, p.endLine),
        url: chunkUrl(names.get(p.repoId) ?? null, p.path, p.startLine, p.endLine),
        content: budgeted[i].text,
        metadata: { uri: p.path, start_line: p.startLine, end_line: p.endLine, start_byte: p.startByte, end_byte: p.endByte, lang: p.lang },
      };
    });
    const structured: McpFetchOutput = { objects, ...(missing.length ? { missing } : {}) };
    return { structured, text: renderFetch(structured, budgeted.filter((b) => b.truncated).length), resultCount: objects.length };
  }
}

function renderFetch(out: McpFetchOutput, truncated: number): string {
  const parts = out.objects.map((o) => `## ${o.title}\nid: ${o.id}   ${o.url}\n\n${o.content}`);
  if (truncated) parts.push(`(${truncated} object(s) truncated to fit max_tokens)`);
  if (out.missing?.length) parts.push(`Not found in this workspace: ${out.missing.join(', ')}. Chunk ids change when a file is re-indexed; run search again for current ids.`);
  if (!out.objects.length && !out.missing?.length) parts.push('Nothing to fetch.');
  return parts.join('\n\n');
}
