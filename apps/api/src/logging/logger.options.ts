import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pino from 'pino';
import { requestIdOf } from '../common/request-id';
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

/**
 * Logs with a request id (taken from `x-request-id` when it is sane, else generated): JSON
 * lines for machines, or one readable line each (pino-pretty) when a person watches the
 * terminal they go to. One line per request: method, path, status, time; no header dump.
 */
export function loggerOptions(config: AppConfig, terminal: boolean = (config.log.toStderr ? process.stderr : process.stdout).isTTY === true): Params {
  const fd = config.log.toStderr ? 2 : 1; // CLI commands keep stdout for their own output
  return {
    pinoHttp: {
      level: config.log.level,
      ...(terminal
        ? { transport: { target: 'pino-pretty', options: { destination: fd, colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,req,res,responseTime', messageFormat: '{if req.method}{req.method} {req.url} {res.statusCode} {responseTime}ms · {end}{msg}' } } }
        : config.log.toStderr
          ? { stream: pino.destination(2) }
          : {}),
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      genReqId: (req: IncomingMessage, res: ServerResponse) => requestIdOf(req, res),
      customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      autoLogging: { ignore: (req) => req.url === '/health' || req.url === '/metrics' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: req.url?.replace(/([?&](?:key|token|api_key)=)[^&]*/gi, '$1[REDACTED]'),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    },
  };
}
