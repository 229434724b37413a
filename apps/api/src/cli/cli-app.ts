import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { QuietStartupLogger } from '../logging/quiet-startup.logger';
import { AppModule } from '../app.module';
import type { AppConfig } from '../config/config.schema';
import { assertQdrantReachable } from '../storage/qdrant/qdrant-preflight';
import { secureDataDir } from '../storage/data-dir';

/**
 * The same modules and services as the server, without HTTP: CLI commands are thin
 * callers of the services users reach over REST. Logs go to stderr (warn and above
 * unless LOG_LEVEL says otherwise), so stdout carries only the command's output.
 */
export async function createCliContext(config: AppConfig): Promise<INestApplicationContext> {
  secureDataDir(config.storage.dataDir);
  if (config.storage.qdrantUrl) await assertQdrantReachable(config.storage.qdrantUrl, config.storage.qdrantApiKey);
  const cliConfig: AppConfig = { ...config, log: { level: process.env.LOG_LEVEL ? config.log.level : 'warn', toStderr: true } };
  const ctx = await NestFactory.createApplicationContext(AppModule.forRoot(cliConfig), { bufferLogs: true, abortOnError: false });
  ctx.useLogger(new QuietStartupLogger(ctx.get(Logger)));
  ctx.enableShutdownHooks([]);
  return ctx;
}
