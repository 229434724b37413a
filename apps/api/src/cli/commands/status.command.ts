import type { Command } from 'commander';
import { IndexingService } from '../../modules/indexing/services/indexing.service';
import { HealthRegistry } from '../../modules/health/health.registry';
import { WorkspacesService } from '../../modules/workspaces/workspaces.service';
import { describeDatabase } from '../../database/data-source-options';
import { createCliContext } from '../cli-app';
import { loadConfigOrExit } from '../cli-context';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('Show dependencies, repositories, file/chunk counts and recent index jobs')
    .option('--workspace <slug>', 'workspace', 'default')
    .option('--json', 'machine-readable output')
    .action(async (opts: { workspace: string; json?: boolean }) => {
      const config = loadConfigOrExit();
      const ctx = await createCliContext(config);
      try {
        const ws = await ctx.get(WorkspacesService).getBySlug(opts.workspace);
        const indexing = ctx.get(IndexingService);
        const dependencies = await ctx.get(HealthRegistry).checkAll();
        const repos = await Promise.all((await indexing.list(ws.id)).map((r) => indexing.get(ws.id, r.id)));
        if (opts.json) {
          process.stdout.write(`${JSON.stringify({ workspace: ws.slug, database: describeDatabase(config), dependencies, repositories: repos })}\n`);
          return;
        }
        const lines = [`Workspace ${ws.slug} — ${describeDatabase(config)}`];
        for (const [name, d] of Object.entries(dependencies)) lines.push(`  ${name.padEnd(13)} ${d.status}${d.detail ? ` (${d.detail})` : ''}`);
        const embedder = dependencies.embedder;
        if (typeof embedder?.id === 'string') lines.push(`  ${'embeddings'.padEnd(13)} ${embedder.id}: ${embedder.semantic ? 'semantic' : 'lexical, not semantic (EMBEDDINGS_PROVIDER=local runs a semantic model offline)'}`);
        lines.push(repos.length ? '' : '\nNo repositories yet: run `sextant index <path>`.');
        for (const r of repos) {
          const langs = Object.entries(r.files.by_language).sort((a, b) => b[1] - a[1]).map(([l, n]) => `${l} ${n}`).join(', ');
          const types = Object.entries(r.chunks.by_type).map(([t, n]) => `${t} ${n}`).join(', ');
          lines.push(`${r.name}  ${r.root_path}${r.watch ? '  [watching]' : ''}`);
          lines.push(`  files ${r.files.total} (${langs || 'none'})`);
          lines.push(`  chunks ${r.chunks.total} (${types || 'none'})`);
          lines.push(`  last commit ${r.last_indexed_commit?.slice(0, 12) ?? '-'}, last indexed ${r.last_indexed_at ?? 'never'}`);
          if (r.last_job) lines.push(`  last job ${r.last_job.id} ${r.last_job.status} (${r.last_job.counts.processed}/${r.last_job.counts.toIndex} files)`);
        }
        process.stdout.write(`${lines.join('\n')}\n`);
      } finally {
        await ctx.close();
      }
    });
}
