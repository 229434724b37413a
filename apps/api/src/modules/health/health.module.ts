import { Global, Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { HealthController } from './health.controller';
import { HealthRegistry } from './health.registry';

@Global()
@Module({ providers: [HealthRegistry], controllers: [HealthController], exports: [HealthRegistry] })
export class HealthModule implements OnModuleInit {
  constructor(
    private readonly registry: HealthRegistry,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onModuleInit(): void {
    this.registry.register('database', async () => {
      await this.dataSource.query('SELECT 1');
      return { ok: true, detail: this.dataSource.options.type === 'postgres' ? 'postgres' : 'sqlite' };
    });
  }
}
