import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import type { AppConfig } from '../config/config.schema';

/** Paths pino must never print: credentials in headers and anything key-like in bodies. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["proxy-authorization"]',
  'res.headers["set-cookie"]',
  '*.apiKey',
  '*.api_key',
  '*.token',
  '*.key',
  '*.secret',
  '*.password',
];

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Structured JSON logs with a request id (taken from `x-request-id` when it is sane, else generated). */
export function loggerOptions(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.log.level,
      // CLI commands keep stdout for their own output.
      ...(config.log.toStderr ? { stream: pino.destination(2) } : {}),
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
      serializers: {
        req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
          id: req.id,
          method: req.method,
          url: req.url?.replace(/([?&](?:key|token|api_key)=)[^&]*/gi, '$1[REDACTED]'),
          headers: req.headers,
        }),
      },
    },
  };
}
