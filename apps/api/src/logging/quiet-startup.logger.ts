import type { LoggerService } from '@nestjs/common';

/** Nest's start-up chatter (one line per module, route and gateway): useful when debugging, noise otherwise. */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'WebSocketsController', 'NestApplicationContext']);

/**
 * Passes every log line through to `inner` except Nest's start-up listing, which goes to
 * debug: at the default level a start shows what the operator needs (where it listens).
 */
export class QuietStartupLogger implements LoggerService {
  constructor(private readonly inner: LoggerService & { debug: NonNullable<LoggerService['debug']> }) {}

  log(message: unknown, ...rest: unknown[]): void {
    if (STARTUP_CONTEXTS.has(String(rest[rest.length - 1]))) return this.inner.debug(message, ...rest);
    this.inner.log(message, ...rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.inner.error(message, ...rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.inner.warn(message, ...rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.inner.debug(message, ...rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.inner.verbose?.(message, ...rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...rest);
  }
}
