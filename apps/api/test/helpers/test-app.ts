import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../../src/bootstrap';
import { loadConfig, type AppConfig } from '../../src/config/config.schema';
import { createFreshPostgresDatabase, postgresBaseUrl } from './test-database';

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataDir: string;
  /** Base URL when `listen: true`. */
  url?: string;
  close: () => Promise<void>;
}

/**
 * Boots the real app on a throw-away data dir (and a fresh Postgres database when
 * DATABASE_URL is set), exactly as `sextant serve` would.
 */
export async function startTestApp(options: { env?: Record<string, string>; listen?: boolean } = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-test-'));
  let dropDb: (() => Promise<void>) | undefined;
  const env: Record<string, string | undefined> = { LOG_LEVEL: 'silent', SEXTANT_DATA_DIR: dataDir, SEXTANT_ALLOWED_ROOTS: os.tmpdir(), ...options.env };
  // DATABASE_URL: '' asks for SQLite even in the Postgres pass (e.g. to read what a CLI run wrote there).
  if (postgresBaseUrl && options.env?.DATABASE_URL === undefined) {
    const db = await createFreshPostgresDatabase(postgresBaseUrl);
    env.DATABASE_URL = db.url;
    dropDb = db.drop;
  }
  const config = loadConfig(env);
  const app = await createApp(config);
  let url: string | undefined;
  if (options.listen) {
    await app.listen(0, '127.0.0.1');
    const addr = app.getHttpServer().address();
    url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  } else {
    await app.init();
  }
  return {
    app,
    config,
    dataDir,
    url,
    close: async () => {
      await app.close();
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
