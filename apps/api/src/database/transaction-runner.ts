import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';

/**
 * Save options for a one-row write outside `TransactionRunner.run`. On SQLite every caller shares
 * one connection, so TypeORM's implicit per-save transaction could open while a `run()` is
 * between statements and the two would nest as a savepoint: one side's COMMIT would only release
 * the other's savepoint, and a later rollback would undo writes already reported as committed.
 * A single INSERT/UPDATE is atomic on its own and needs no transaction.
 */
export const SINGLE_STATEMENT = { transaction: false } as const;

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
