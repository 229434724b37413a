import type { Command } from 'commander';
import { AskRequestSchema, type AskCitation, type AskResponse } from '@sextant/contracts';
import { DomainError } from '../../common/domain-error';
import { AskError, AskErrorCode } from '../../modules/ask/ask.errors';
import { AskService } from '../../modules/ask/ask.service';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { createCliContext } from '../cli-app';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';

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
      const ctx = await createCliContext(config);
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once('SIGINT', onSigint);
      try {
        const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
        const res = await ctx.get(AskService).ask(ws.id, parsed.data, {
          principal: 'cli',
          signal: controller.signal,
          onEvent: (e) => {
            if (opts.json) return;
            if (e.type === 'token') process.stdout.write(e.text);
            else if (e.type === 'step' && e.step.kind !== 'answer') process.stderr.write(`· ${e.step.by === 'model' ? 'model ' : ''}${e.step.kind} ${JSON.stringify(e.step.input)} -> ${e.step.sources.length ? e.step.sources.map((n) => `[${n}]`).join(' ') : e.step.note ?? 'nothing'}\n`);
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
