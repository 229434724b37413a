import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { DomainError, DomainErrorCode } from '../../common/domain-error';
import { WorkspaceEntity } from './workspace.entity';
import { WorkspacesRepository } from './workspaces.repository';

export const DEFAULT_WORKSPACE_SLUG = 'default';

export interface Workspace {
  id: string;
  slug: string;
  name: string;
  createdAt: string;
}

export const mapWorkspace = (row: WorkspaceEntity): Workspace => ({ id: row.id, slug: row.slug, name: row.name, createdAt: row.createdAt.toISOString() });

@Injectable()
export class WorkspacesService implements OnModuleInit {
  private readonly logger = new Logger(WorkspacesService.name);

  constructor(private readonly workspaces: WorkspacesRepository) {}

  async onModuleInit(): Promise<void> {
    await this.ensureDefault();
  }

  /** The `default` workspace exists from the first start so local mode has somewhere to put things. */
  async ensureDefault(): Promise<Workspace> {
    const existing = await this.workspaces.findBySlug(DEFAULT_WORKSPACE_SLUG);
    if (existing) return mapWorkspace(existing);
    try {
      const created = await this.workspaces.create(DEFAULT_WORKSPACE_SLUG, 'Default workspace');
      this.logger.log(`Created the default workspace ${created.id}`);
      return mapWorkspace(created);
    } catch (err) {
      // Another process may have created it between our read and insert.
      const raced = await this.workspaces.findBySlug(DEFAULT_WORKSPACE_SLUG);
      if (raced) return mapWorkspace(raced);
      throw err;
    }
  }

  async getBySlug(slug: string): Promise<Workspace> {
    const row = await this.workspaces.findBySlug(slug);
    if (!row) throw new DomainError(DomainErrorCode.NotFound, `Workspace "${slug}" not found`);
    return mapWorkspace(row);
  }

  async getById(id: string): Promise<Workspace> {
    const row = await this.workspaces.findById(id);
    if (!row) throw new DomainError(DomainErrorCode.NotFound, `Workspace ${id} not found`);
    return mapWorkspace(row);
  }

  async create(slug: string, name?: string): Promise<Workspace> {
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) {
      throw new DomainError(DomainErrorCode.InvalidInput, 'Workspace slug must be 1-63 lower-case letters, digits or dashes');
    }
    if (await this.workspaces.findBySlug(slug)) throw new DomainError(DomainErrorCode.Conflict, `Workspace "${slug}" already exists`);
    return mapWorkspace(await this.workspaces.create(slug, name ?? slug));
  }

  async list(): Promise<Workspace[]> {
    return (await this.workspaces.list()).map(mapWorkspace);
  }
}
