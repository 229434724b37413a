/** Error codes meaning "the database cannot be reached right now", not "the request is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // Postgres: admin/crash shutdown, cannot connect now, connection exceptions.
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too many connections
  'SQLITE_BUSY',
]);
const UNAVAILABLE_MESSAGE = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|database is locked|the database system is (starting up|shutting down)/i;

/**
 * True when `err` (a TypeORM QueryFailedError, a pg or better-sqlite3 error, or anything
 * wrapping one in `driverError`/`cause`) says the database is unreachable or busy: callers
 * should retry, so it is a 503, not a 500.
 *
 * @example
 * if (isDatabaseUnavailable(err)) res.status(503).set('Retry-After', '5')
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    e = (e as { driverError?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}
