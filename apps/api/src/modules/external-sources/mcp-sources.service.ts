import { Inject, Injectable } from '@nestjs/common';
import { MASKED_SECRET, McpSourceCreateSchema, McpSourceUpdateSchema, type McpSource, type McpSourceTestResult, type McpSourceTransport } from '@sextant/contracts';
import type { z } from 'zod';
import { DomainError, DomainErrorCode, notFound } from '../../common/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { ExternalSearchService } from './external-search.service';
import { McpConnectionPool } from './mcp-connection.pool';
import { mapMcpSource, toSourceConfig } from './mcp-source.mapper';
import { McpSourcesRepository } from './mcp-sources.repository';
import { checkOutboundUrl } from './outbound-url';
import { SourceSecrets } from './source-secrets';

/** Admin use cases of external MCP sources; every one is scoped to the caller's workspace. */
@Injectable()
export class McpSourcesService {
  constructor(
    private readonly rows: McpSourcesRepository,
    private readonly pool: McpConnectionPool,
    private readonly search: ExternalSearchService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly secrets: SourceSecrets,
  ) {}

  private readonly open = (stored: string) => this.secrets.open(stored);

  async list(workspaceId: string): Promise<McpSource[]> {
    return (await this.rows.list(workspaceId)).map((row) => mapMcpSource(row, this.open));
  }

  async get(workspaceId: string, idOrName: string): Promise<McpSource> {
    return mapMcpSource(await this.require(workspaceId, idOrName), this.open);
  }

  async create(workspaceId: string, input: z.output<typeof McpSourceCreateSchema>): Promise<McpSource> {
    if (await this.rows.nameTaken(workspaceId, input.name)) throw new DomainError(DomainErrorCode.Conflict, `An MCP source named ${input.name} already exists in this workspace`, { name: input.name });
    if (input.transport.type === 'http') await checkOutboundUrl(input.transport.url, this.config.indexing.cloneAllowedHosts);
    const row = await this.rows.insert({
      workspaceId,
      name: input.name,
      transportType: input.transport.type,
      transport: this.secrets.seal(JSON.stringify(input.transport)),
      enabled: input.enabled,
      priority: input.priority,
      resultLimit: input.result_limit,
      timeoutMs: input.timeout_ms,
    });
    return mapMcpSource(row, this.open);
  }

  async update(workspaceId: string, idOrName: string, input: z.output<typeof McpSourceUpdateSchema>): Promise<McpSource> {
    const row = await this.require(workspaceId, idOrName);
    if (input.transport) {
      if (input.transport.type === 'http') await checkOutboundUrl(input.transport.url, this.config.indexing.cloneAllowedHosts);
      row.transport = this.secrets.seal(JSON.stringify(keepMaskedSecrets(input.transport, JSON.parse(this.secrets.open(row.transport)) as McpSourceTransport)));
      row.transportType = input.transport.type;
    }
    if (input.enabled !== undefined) row.enabled = input.enabled;
    if (input.priority !== undefined) row.priority = input.priority;
    if (input.result_limit !== undefined) row.resultLimit = input.result_limit;
    if (input.timeout_ms !== undefined) row.timeoutMs = input.timeout_ms;
    const saved = await this.rows.save(row);
    await this.pool.evict(saved.id);
    return mapMcpSource(saved, this.open);
  }

  /** Removes the source and stops its server (a stdio server's whole process group). */
  async remove(workspaceId: string, idOrName: string): Promise<McpSource> {
    const row = await this.require(workspaceId, idOrName);
    await this.rows.remove(row);
    await this.pool.evict(row.id);
    return mapMcpSource(row, this.open);
  }

  /** Connects (or reuses the connection), lists the tools, picks the search tool and runs one query. */
  async test(workspaceId: string, idOrName: string, query: string): Promise<McpSourceTestResult> {
    const config = toSourceConfig(await this.require(workspaceId, idOrName), this.open);
    return this.search.probe(config, query);
  }

  private async require(workspaceId: string, idOrName: string) {
    const row = await this.rows.find(workspaceId, idOrName);
    if (!row) throw notFound('MCP source', idOrName);
    return row;
  }
}

/** A transport sent back as the API showed it (values `********`) keeps the stored values of those keys. */
function keepMaskedSecrets(next: McpSourceTransport, stored: McpSourceTransport): McpSourceTransport {
  const merge = (fresh: Record<string, string>, old: Record<string, string>) => Object.fromEntries(Object.entries(fresh).map(([k, v]) => [k, v === MASKED_SECRET && k in old ? old[k] : v]));
  if (next.type === 'stdio') return { ...next, env: merge(next.env, stored.type === 'stdio' ? stored.env : {}) };
  return { ...next, headers: merge(next.headers, stored.type === 'http' ? stored.headers : {}) };
}
