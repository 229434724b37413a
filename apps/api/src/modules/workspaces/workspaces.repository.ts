import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { WorkspaceEntity } from './workspace.entity';
import { SINGLE_STATEMENT } from '../../database/transaction-runner';

@Injectable()
export class WorkspacesRepository {
  constructor(@InjectRepository(WorkspaceEntity) private readonly rows: Repository<WorkspaceEntity>) {}

  findBySlug(slug: string): Promise<WorkspaceEntity | null> {
    return this.rows.findOne({ where: { slug } });
  }

  findById(id: string): Promise<WorkspaceEntity | null> {
    return this.rows.findOne({ where: { id } });
  }

  list(): Promise<WorkspaceEntity[]> {
    return this.rows.find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async create(slug: string, name: string): Promise<WorkspaceEntity> {
    const row = this.rows.create({ id: randomUUID(), slug, name });
    return this.rows.save(row, SINGLE_STATEMENT);
  }
}
