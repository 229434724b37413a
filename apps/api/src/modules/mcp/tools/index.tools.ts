import { Injectable } from '@nestjs/common';
import { McpIndexStatusOutputSchema, McpRefreshIndexOutputSchema, McpRepositoryRefInputSchema, type IndexJob, type McpIndexStatusOutput, type McpRefreshIndexOutput, type Repository } from '@sextant/contracts';
import type { z } from 'zod';
import { IndexingService } from '../../indexing/services/indexing.service';
import { McpToolError, type McpCallContext, type McpTool, type McpToolOutcome } from '../mcp-tool';

type JobSummary = McpRefreshIndexOutput['jobs'][number]['job'];

const summariseJob = (j: IndexJob): JobSummary => ({
  job_id: j.id,
  kind: j.kind,
  status: j.status,
  phase: j.phase,
  files_processed: j.counts.processed,
  files_to_index: j.counts.toIndex,
  files_failed: j.counts.failed,
  chunks: j.counts.chunks,
  eta_s: j.eta_s,
  error: j.error,
  started_at: j.started_at,
  finished_at: j.finished_at,
});

/** The repositories a `repository` argument names (by id or name, case-insensitive fallback), or all of them. */
async function resolveRepositories(indexing: IndexingService, workspaceId: string, ref: string | undefined): Promise<Repository[]> {
  const repos = await indexing.list(workspaceId);
  if (!repos.length) throw new McpToolError('No repository is registered in this workspace.', 'Ask an operator to run `sextant index <path>` (or POST /v1/repos), then call this tool again.');
  if (!ref) return repos;
  const match = repos.find((r) => r.id === ref || r.name === ref) ?? repos.find((r) => r.name.toLowerCase() === ref.toLowerCase());
  if (!match) throw new McpToolError(`No repository "${ref}" in this workspace.`, `Use one of: ${repos.map((r) => r.name).join(', ')} — or omit "repository" for all of them.`);
  return [match];
}

/** `refresh_index` (seed 001): starts (or joins) an incremental re-index and says how to follow it. */
@Injectable()
export class RefreshIndexTool implements McpTool<typeof McpRepositoryRefInputSchema, typeof McpRefreshIndexOutputSchema> {
  readonly name = 'refresh_index' as const;
  readonly title = 'Re-index changed files';
  readonly description = [
    'Start an incremental re-index of one repository (by name or id) or of every repository in the workspace, so searches see',
    'files that changed since the last index. Use it after you edit files and before searching for your own changes. Returns',
    'immediately with each job id, its status and a summary; indexing runs in the background (only changed files are',
    're-parsed). Call `index_status` to follow progress. Needs a member key.',
  ].join(' ');
  readonly input = McpRepositoryRefInputSchema;
  readonly output = McpRefreshIndexOutputSchema;
  readonly role = 'member' as const;
  readonly annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

  constructor(private readonly indexing: IndexingService) {}

  async run(args: z.output<typeof McpRepositoryRefInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpRefreshIndexOutput>> {
    const repos = await resolveRepositories(this.indexing, ctx.auth.workspaceId, args.repository);
    const jobs: McpRefreshIndexOutput['jobs'] = [];
    for (const repo of repos) {
      const { job, joined } = await this.indexing.startOrJoin(ctx.auth.workspaceId, repo.id, 'incremental');
      jobs.push({ repository_id: repo.id, repository: repo.name, joined, job: summariseJob(job) });
    }
    const summary = jobs
      .map((j) => `${j.joined ? 'Joined the running' : 'Started an incremental'} re-index of "${j.repository}" (job ${j.job.job_id}, ${j.job.status}).`)
      .concat('Indexing runs in the background; call index_status to follow it.')
      .join(' ');
    return { structured: { jobs, summary }, text: summary, resultCount: jobs.length };
  }
}

/** `index_status`: what is indexed, and the state of the last job of each repository. */
@Injectable()
export class IndexStatusTool implements McpTool<typeof McpRepositoryRefInputSchema, typeof McpIndexStatusOutputSchema> {
  readonly name = 'index_status' as const;
  readonly title = 'Index status';
  readonly description = [
    'Show what is indexed: for one repository (by name or id) or all of them, the number of files and chunks, when it was last',
    'indexed (and at which commit), and the last index job with its status, phase, progress and ETA. Use it to check whether',
    'search results can be trusted to be current, or to follow a job started by `refresh_index`.',
  ].join(' ');
  readonly input = McpRepositoryRefInputSchema;
  readonly output = McpIndexStatusOutputSchema;
  readonly role = 'reader' as const;
  readonly annotations = { readOnlyHint: true, openWorldHint: false };

  constructor(private readonly indexing: IndexingService) {}

  async run(args: z.output<typeof McpRepositoryRefInputSchema>, ctx: McpCallContext): Promise<McpToolOutcome<McpIndexStatusOutput>> {
    const repos = await resolveRepositories(this.indexing, ctx.auth.workspaceId, args.repository);
    const details = await Promise.all(repos.map((r) => this.indexing.get(ctx.auth.workspaceId, r.id)));
    const repositories = details.map((d) => ({
      id: d.id,
      name: d.name,
      files: d.files.total,
      chunks: d.chunks.total,
      last_indexed_at: d.last_indexed_at,
      last_indexed_commit: d.last_indexed_commit,
      watch: d.watch,
      last_job: d.last_job ? summariseJob(d.last_job) : null,
    }));
    const summary = repositories
      .map((r) => {
        const job = r.last_job ? `last job ${r.last_job.status}${r.last_job.status === 'running' ? ` (${r.last_job.phase}, ${r.last_job.files_processed}/${r.last_job.files_to_index} files${r.last_job.eta_s !== null ? `, ~${r.last_job.eta_s}s left` : ''})` : ''}` : 'never indexed';
        return `"${r.name}": ${r.files} files, ${r.chunks} chunks, ${r.last_indexed_at ? `indexed ${r.last_indexed_at}` : 'not indexed yet'}; ${job}.`;
      })
      .join('\n');
    return { structured: { repositories, summary }, text: summary, resultCount: repositories.length };
  }
}
