import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Runs a transaction. With better-sqlite3, TypeORM has exactly one connection, so two
 * concurrent `transaction()` calls would interleave their BEGIN/SAVEPOINT/COMMIT and fail
 * ("cannot start a transaction within a transaction"); on SQLite transactions are therefore
 * queued one at a time. Postgres gets a pooled connection per transaction as usual.
 */
@Injectable()
export class TransactionRunner {
  private tail: Promise<unknown> = Promise.resolve();
  private readonly serialise: boolean;

  constructor(@InjectDataSource() private readonly db: DataSource) {
    this.serialise = db.options.type !== 'postgres';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serialise) return this.db.transaction(work);
    const result = this.tail.then(() => this.db.transaction(work));
    this.tail = result.catch(() => undefined);
    return result;
  }
}
