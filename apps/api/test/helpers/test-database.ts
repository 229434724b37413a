import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * Postgres tests run when DATABASE_URL is set (CI does a second pass with it). Each
 * caller gets its own freshly created database so parallel test files never share rows.
 */
export const postgresBaseUrl = process.env.DATABASE_URL;

export async function createFreshPostgresDatabase(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sxt_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
