import { Injectable } from '@nestjs/common';
import { AskRequestSchema, McpAskInputSchema, McpAskOutputSchema, type McpAskOutput } from '@sextant/contracts';
import type { z } from 'zod';
import { AskError, AskErrorCode } from '../../ask/ask.errors';
import { AskService } from '../../ask/ask.service';
import { McpToolError, type McpCallContext, type McpTool, type McpToolOutcome } from '../mcp-tool';

const HINTS: Record<AskErrorCode, string> = {
  [AskErrorCode.Disabled]: 'Use `search` and `fetch` instead and answer from what they return.',
  [AskErrorCode.ChatFailed]: 'Use `search` and `fetch` instead, or retry later.',
  [AskErrorCode.ChatTimeout]: 'Retry later, or use `search` and `fetch` instead.',
  [AskErrorCode.ChatRateLimited]: 'Wait as told, or use `search` and `fetch` instead.',
  [AskErrorCode.ChatUnreachable]: 'Use `search` and `fetch` instead; the operator must fix CHAT_BASE_URL.',
};

/** `ask`: a cited answer written by the server's chat model from the fused search (seed 000's "combined context -> LLM"). */
@Injectable()
export class AskTool implements McpTool<typeof McpAskInputSchema, typeof McpAskOutputSchema> {
  readonly name = 'ask' as const;
  readonly title = 'Answer a question with citations';
  readonly description = [
    "Answer a question about this codebase with the server's own chat model, grounded in the fused search (code chunks and similar past tasks).",
    'Returns the answer with [n] markers and citations: n -> path:lines (file chunks, 1-based) or a past task id. The model may search and',
    'fetch up to max_steps more times. When the indexed code lacks the answer it says so. Prefer `search` + `fetch` when you want to read',
    'the code yourself; `ask` fails with a clear message when the server has no chat model configured.',
  ].join(' ');
  readonly input = McpAskInputSchema;
  readonly output = McpAskOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: true };

  constructor(private readonly asks: AskService) {}

  async run(args: z.output<typeof McpAskInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpAskOutput>> {
    const request = AskRequestSchema.parse({ query: args.question, max_context_tokens: args.max_context_tokens, max_steps: args.max_steps });
    try {
      const res = await this.asks.ask(ctx.auth.workspaceId, request, { principal: ctx.auth.principal, signal: ctx.signal });
      const structured: McpAskOutput = { answer: res.answer, citations: res.citations, unknown_refs: res.unknown_refs, model: res.model };
      const refs = res.citations.map((c) => `[${c.n}] ${c.kind === 'file' ? `${c.repo_name ? `${c.repo_name}/` : ''}${c.label}` : `task ${c.task_id}: ${c.title}`}`);
      const text = [res.answer, '', refs.length ? `Sources:\n${refs.join('\n')}` : 'Sources: none cited.'].join('\n');
      return { structured, text, resultCount: res.citations.length };
    } catch (err) {
      if (err instanceof AskError) throw new McpToolError(err.message, HINTS[err.code]);
      throw err;
    }
  }
}
