import type { Command } from 'commander';
import { DataSource } from 'typeorm';
import { dataSourceOptions, describeDatabase } from '../../database/data-source-options';
import type { AppConfig } from '../../config/config.schema';
import { ExitCode, fail, loadConfigOrExit } from '../cli-context';
import { withDataDirLease } from '../server-client';

export function registerDb(program: Command): void {
  const db = program.command('db').description('Database schema management');

  db.command('migrate')
    .description('Apply pending migrations (they also run at start-up)')
    .action(async () => {
      const config = loadConfigOrExit();
      const ds = new DataSource({ ...dataSourceOptions(config), migrationsRun: false });
      try {
        await ds.initialize();
        const applied = await ds.runMigrations({ transaction: 'each' });
        process.stdout.write(
          applied.length ? `Applied ${applied.length} migration(s) on ${describeDatabase(config)}:\n${applied.map((m) => `  ${m.name}`).join('\n')}\n` : `Schema is up to date on ${describeDatabase(config)}\n`,
        );
      } catch (err) {
        fail(`migration failed: ${(err as Error).message}`);
      } finally {
        if (ds.isInitialized) await ds.destroy();
      }
    });

  db.command('revert')
    .description('Revert the most recent migration (asks for --yes; refused while a server or another command uses the data dir)')
    .option('--all', 'revert every migration (drops all Sextant tables)')
    .option('--yes', 'really revert: reverting drops tables or columns and the data in them')
    .action(async (opts: { all?: boolean; yes?: boolean }) => {
      const config = loadConfigOrExit();
      if (!opts.yes) {
        fail(`this drops ${opts.all ? 'every Sextant table' : "the latest migration's tables or columns"} on ${describeDatabase(config)} and the data in them; run again with --yes to do it`, ExitCode.BadInput);
      }
      await withDataDirLease(config, `sextant db revert${opts.all ? ' --all' : ''}`, () => revert(config, opts.all ?? false));
    });
}

async function revert(config: AppConfig, all: boolean): Promise<void> {
  const ds = new DataSource({ ...dataSourceOptions(config), migrationsRun: false });
  try {
    await ds.initialize();
    let reverted = 0;
    do {
      const before = (await ds.query(`SELECT COUNT(*) AS n FROM migrations`).catch(() => [{ n: 0 }]))[0].n;
      if (Number(before) === 0) break;
      await ds.undoLastMigration({ transaction: 'each' });
      reverted++;
    } while (all);
    process.stdout.write(`Reverted ${reverted} migration(s) on ${describeDatabase(config)}\n`);
  } catch (err) {
    fail(`revert failed: ${(err as Error).message}`);
  } finally {
    if (ds.isInitialized) await ds.destroy();
  }
}
