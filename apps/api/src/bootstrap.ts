import * as fs from 'node:fs';
import * as path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { json } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { QuietStartupLogger } from './logging/quiet-startup.logger';
import { AppModule } from './app.module';
import { completeOpenApiDocument } from './common/openapi-document';
import { bodyParserErrorHandler, TASK_FILE_IMPORT_PATH } from './common/problem-details';
import { assignRequestId } from './common/request-id';
import type { AppConfig } from './config/config.schema';
import { httpMetricsMiddleware } from './modules/metrics/http-metrics.middleware';
import { requestOriginMiddleware } from './modules/auth/request-origin.middleware';
import { MetricsService } from './modules/metrics/metrics.service';
import { SextantIoAdapter } from './modules/realtime/socket-io.adapter';
import { assertQdrantReachable } from './storage/qdrant/qdrant-preflight';
import { secureDataDir } from './storage/data-dir';

/**
 * Builds the HTTP app (not yet listening). Used by `sextant serve` and by e2e tests,
 * so tests exercise exactly what users run.
 */
export async function createApp(config: AppConfig): Promise<NestExpressApplication> {
  secureDataDir(config.storage.dataDir);
  if (config.storage.qdrantUrl) await assertQdrantReachable(config.storage.qdrantUrl, config.storage.qdrantApiKey);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), { bufferLogs: true, bodyParser: false });
  app.useLogger(new QuietStartupLogger(app.get(Logger)));
  app.useWebSocketAdapter(new SextantIoAdapter(app, config));
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  // Every request has its id before anything can refuse it (error bodies carry it).
  app.use(assignRequestId);
  // Metrics first so rejections by the body parser (413) are measured as well.
  app.use(httpMetricsMiddleware(app.get(MetricsService)));
  // No upgrade-insecure-requests: plain-HTTP installs on a LAN address would lose their assets.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));
  app.use(requestOriginMiddleware(config));
  // Without configured origins no CORS headers are sent, so browsers allow only same-origin calls.
  if (config.http.corsOrigins.length) {
    app.enableCors({
      origin: config.http.corsOrigins,
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Mcp-Session-Id', 'Mcp-Protocol-Version'],
      exposedHeaders: ['Retry-After', 'X-Request-Id', 'WWW-Authenticate', 'Mcp-Session-Id'],
      maxAge: 600,
    });
  }
  // A task file's import is one request (the dashboard reads the whole file); the first parser to read a body wins.
  app.use(TASK_FILE_IMPORT_PATH, json({ limit: config.http.importBodyLimit }));
  app.useBodyParser('json', { limit: config.http.bodyLimit });
  app.use(bodyParserErrorHandler);

  const openApi = new DocumentBuilder()
    .setTitle('Sextant API')
    .setDescription('Code-and-history search: fused file and task search, indexing, feedback. Every error is application/problem+json (RFC 9457) with a stable `code` and the `request_id`; list routes page with `limit` and an opaque `cursor` (`next_cursor` in the response).')
    .setVersion('v1')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => completeOpenApiDocument(SwaggerModule.createDocument(app, openApi), app), { jsonDocumentUrl: 'docs/openapi.json' });
  serveDashboard(app);
  return app;
}

const WEB_DIST = path.resolve(__dirname, '../../web/dist');
const API_PREFIXES = ['/v1', '/docs', '/mcp', '/health', '/metrics', '/socket.io'];

/** Serves the built web dashboard at `/` (client-side routes fall back to index.html). */
function serveDashboard(app: NestExpressApplication): void {
  const index = path.join(WEB_DIST, 'index.html');
  if (!fs.existsSync(index)) return;
  app.useStaticAssets(WEB_DIST, { index: 'index.html', maxAge: '1h', setHeaders: (res, file) => file.endsWith('.html') && res.setHeader('Cache-Control', 'no-cache') });
  app.use((req: { method: string; path: string; headers: Record<string, string | undefined> }, res: { sendFile(p: string): void }, next: () => void) => {
    const wantsHtml = req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    if (wantsHtml && !API_PREFIXES.some((p) => req.path === p || req.path.startsWith(`${p}/`))) return res.sendFile(index);
    next();
  });
}

/** Stops accepting connections, lets in-flight requests finish, closes the database; resolves false on timeout. */
export async function shutdownGracefully(app: NestExpressApplication, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  const closed = app.close().then(() => true);
  const ok = await Promise.race([closed, timedOut]);
  clearTimeout(timer);
  return ok;
}
