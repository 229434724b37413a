import type { Command } from 'commander';
import { createParser } from 'eventsource-parser';
import { AskRequestSchema, type AskCitation, type AskResponse, type AskStep, type ParsedAskRequest } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { AskError, AskErrorCode } from '../../modules/ask/ask.errors';
import { AskService } from '../../modules/ask/ask.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { ServerClient, ServerRequestError } from '../server-client';

export function formatCitation(c: AskCitation): string {
  return c.kind === 'file' ? `[${c.n}] ${c.repo_name ? `${c.repo_name}/` : ''}${c.path}:${c.start_line}-${c.end_line}` : `[${c.n}] task ${c.task_id}: ${c.title}`;
}

/** What follows the streamed answer: the cited sources, made-up references, and the steps taken (on stderr). */
export function formatAskFooter(res: AskResponse): string {
  const lines = ['', '', res.citations.length ? 'Sources:' : 'Sources: none cited.'];
  for (const c of res.citations) lines.push(`  ${formatCitation(c)}`);
  if (res.unknown_refs.length) lines.push(`  (the answer cites ${res.unknown_refs.map((n) => `[${n}]`).join(' ')}, which match no source)`);
  return lines.join('\n');
}

/** A search or fetch the answer took, as a line for stderr (null for the answer itself). */
function formatAskStep(step: AskStep): string | null {
  if (step.kind === 'answer') return null;
  return `· ${step.by === 'model' ? 'model ' : ''}${step.kind} ${JSON.stringify(step.input)} -> ${step.sources.length ? step.sources.map((n) => `[${n}]`).join(' ') : step.note ?? 'nothing'}\n`;
}

/** Longest stream URL query sent (Node servers refuse headers past 16 KB); a longer question (a pasted issue) is asked with one POST and printed when done. */
const MAX_STREAM_QUERY_BYTES = 8000;

/**
 * Asks the running server that owns the data dir: its chat model, index and caches, its search
 * log. Streams the answer over `GET /v1/ask/stream` (server-sent events) as the local path does.
 */
async function askThroughServer(server: ServerClient, req: ParsedAskRequest, json: boolean, signal: AbortSignal): Promise<void> {
  const params = new URLSearchParams({ q: req.query, top_k: String(req.top_k), max_context_tokens: String(req.max_context_tokens), max_steps: String(req.max_steps) });
  if (json || params.toString().length > MAX_STREAM_QUERY_BYTES) {
    const body = { query: req.query, top_k: req.top_k, max_context_tokens: req.max_context_tokens, max_steps: req.max_steps };
    const res = await server.request<AskResponse>('POST', '/v1/ask', body, signal);
    process.stdout.write(json ? `${JSON.stringify(res)}\n` : `${res.answer}${formatAskFooter(res)}\n`);
    return;
  }
  const res = await server.open(`/v1/ask/stream?${params}`, signal);
  let done: AskResponse | null = null;
  let failure: ServerRequestError | null = null;
  const parser = createParser({
    onEvent: ({ event, data }) => {
      const payload = JSON.parse(data) as Record<string, unknown>;
      if (event === 'token') process.stdout.write(String(payload.text));
      else if (event === 'step') process.stderr.write(formatAskStep(payload as unknown as AskStep) ?? '');
      else if (event === 'done') done = payload as unknown as AskResponse;
      else if (event === 'error') failure = new ServerRequestError(Number(payload.status) || 500, String(payload.detail ?? 'the answer failed'), payload.code as string | undefined);
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(chunk, { stream: true }));
  if (failure) throw failure;
  if (!done) throw new ServerRequestError(502, `the server at ${server.url} ended the answer without finishing it`);
  process.stdout.write(`${formatAskFooter(done)}\n`);
}

/** The CLI's exit code for a refusal: a missing chat model is configuration, a bad question input, the rest failure. */
function askExitCode(status: number, code: string | undefined): number {
  if (code === 'ask_disabled') return ExitCode.BadConfig;
  return status >= 400 && status < 500 && status !== 429 ? ExitCode.BadInput : ExitCode.Failure;
}

export function registerAsk(program: Command): void {
  program
    .command('ask <question>')
    .description('Answer a question from the indexed code and task history with the chat model (CHAT_MODEL); streams the answer, then lists its sources')
    .option('-k, --top-k <n>', 'code chunks retrieved for the context (1-30)', '8')
    .option('--max-tokens <n>', 'context budget for retrieved text, in tokens (~4 characters each)', '6000')
    .option('--max-steps <n>', 'extra search/fetch rounds the model may take (0-3)', '3')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'print the full response as JSON instead of streaming')
    .action(async (question: string, opts: { topK: string; maxTokens: string; maxSteps: string; workspace: string; json?: boolean }) => {
      const parsed = AskRequestSchema.safeParse({ query: question, top_k: Number(opts.topK), max_context_tokens: Number(opts.maxTokens), max_steps: Number(opts.maxSteps) });
      if (!parsed.success) fail(parsed.error.issues.map((i) => `${i.path.join('.') || 'question'}: ${i.message}`).join('; '), ExitCode.BadInput);
      const config = loadConfigOrExit();
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once('SIGINT', onSigint);
      const server = ServerClient.find(config, opts.workspace);
      if (server) {
        try {
          process.stderr.write(`Asking through the server at ${server.url} (it owns this data dir)\n`);
          await askThroughServer(server, parsed.data, Boolean(opts.json), controller.signal);
        } catch (err) {
          if (controller.signal.aborted) fail('cancelled', ExitCode.Failure);
          if (err instanceof ServerRequestError) fail(err.message, askExitCode(err.status, err.code));
          throw err;
        } finally {
          process.off('SIGINT', onSigint);
        }
        return;
      }
      const ctx = await createCliContext(config);
      try {
        const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
        const res = await ctx.get(AskService).ask(ws.id, parsed.data, {
          principal: 'cli',
          signal: controller.signal,
          onEvent: (e) => {
            if (opts.json) return;
            if (e.type === 'token') process.stdout.write(e.text);
            else if (e.type === 'step') process.stderr.write(formatAskStep(e.step) ?? '');
          },
        });
        process.stdout.write(opts.json ? `${JSON.stringify(res)}\n` : `${formatAskFooter(res)}\n`);
      } catch (err) {
        if (err instanceof AskError) fail(err.message, err.code === AskErrorCode.Disabled ? ExitCode.BadConfig : ExitCode.Failure);
        if (err instanceof DomainError) fail(err.message, ExitCode.BadInput);
        throw err;
      } finally {
        process.off('SIGINT', onSigint);
        await ctx.close();
      }
    });
}
