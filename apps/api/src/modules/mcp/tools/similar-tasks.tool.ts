import { Injectable } from '@nestjs/common';
import { McpSimilarTasksInputSchema, McpSimilarTasksOutputSchema, type McpSimilarTasksOutput } from '@sextant/contracts';
import type { z } from 'zod';
import { TaskHistoryService } from '../../task-history/task-history.service';
import type { McpCallContext, McpTool, McpToolOutcome } from '../mcp-tool';
import { round } from './tool-format';

const DESCRIPTION_CHARS = 600;

/** `search_similar_tasks` (seed 000, MCP server 1): past work like the query, with the files it touched. */
@Injectable()
export class SearchSimilarTasksTool implements McpTool<typeof McpSimilarTasksInputSchema, typeof McpSimilarTasksOutputSchema> {
  readonly name = 'search_similar_tasks' as const;
  readonly title = 'Find similar past tasks';
  readonly description = [
    'Find past tasks (issues, tickets, commits, pull requests) similar to a problem or change you describe, with the files each',
    'one touched. Use it before changing code to learn what was done before, why, and where: "customers charged twice",',
    '"login sessions expire too early". Returns tasks best first with task_id, title, the start of the description, status,',
    'outcome, date, a similarity score and files (repository-relative paths; use `search` or `fetch` to read them).',
  ].join(' ');
  readonly input = McpSimilarTasksInputSchema;
  readonly output = McpSimilarTasksOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(private readonly tasks: TaskHistoryService) {}

  async run(args: z.output<typeof McpSimilarTasksInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpSimilarTasksOutput>> {
    const similar = await this.tasks.findSimilarTasks(ctx.auth.workspaceId, args.query, { k: args.top_k, via: 'dense', signal: ctx.signal });
    const structured: McpSimilarTasksOutput = {
      query: args.query,
      tasks: similar.map((t) => ({
        task_id: t.external_id,
        title: t.title,
        description: t.body.length > DESCRIPTION_CHARS ? `${t.body.slice(0, DESCRIPTION_CHARS)}…` : t.body,
        status: t.status,
        outcome: t.outcome,
        source: t.source,
        created_at: t.created_at,
        similarity: round(t.score),
        files: t.files,
      })),
    };
    return { structured, text: render(structured), resultCount: structured.tasks.length };
  }
}

function render(out: McpSimilarTasksOutput): string {
  if (!out.tasks.length) return `No past tasks in this workspace resemble "${out.query}" (has task history been imported? \`sextant tasks import\`).`;
  const lines = [`${out.tasks.length} similar past task(s) for "${out.query}":`, ''];
  out.tasks.forEach((t, i) => {
    lines.push(`${i + 1}. ${t.task_id}: ${t.title}  (similarity ${t.similarity.toFixed(4)}${t.status ? `, ${t.status}` : ''}${t.created_at ? `, ${t.created_at.slice(0, 10)}` : ''})`);
    if (t.description) lines.push(`   ${t.description.replace(/\s+/g, ' ').slice(0, 200)}`);
    if (t.outcome) lines.push(`   outcome: ${t.outcome.replace(/\s+/g, ' ').slice(0, 200)}`);
    lines.push(`   files: ${t.files.length ? t.files.join(', ') : '(none recorded)'}`, '');
  });
  return lines.join('\n');
}
