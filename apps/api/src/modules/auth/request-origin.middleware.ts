import type { NextFunction, Request, Response } from 'express';
import type { Socket } from 'socket.io';
import { problem } from '@sextant/contracts';
import { sendProblem } from '../../common/problem-details';
import type { AppConfig } from '../../config/config.schema';
import { isLocalMode } from './auth-mode';
import { hostAllowed, originAllowed, originPolicy } from './origin-policy';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** True when a request went through a proxy (which makes every client look local). */
export function isForwarded(headers: Record<string, string | string[] | undefined>): boolean {
  return headers['x-forwarded-for'] !== undefined || headers.forwarded !== undefined;
}

/**
 * Defences against web pages reaching the API through the user's browser, run before
 * routing on every HTTP request:
 * - DNS rebinding: in local mode (or once SEXTANT_ALLOWED_HOSTS is set) the `Host` header
 *   must name this server (403);
 * - cross-site writes: a state-changing request from a browser page on another origin is
 *   refused (403), whatever the mode;
 * - form posts: a state-changing request with a body that is not JSON gets 415, since HTML
 *   forms can send `application/x-www-form-urlencoded`, `multipart/form-data` and `text/plain`
 *   across sites without a preflight.
 */
export function requestOriginMiddleware(config: AppConfig) {
  const policy = originPolicy(config);
  const checkHost = isLocalMode(config) || config.http.allowedHosts.length > 0;
  const refuse = (req: Request, res: Response, status: number, code: string, detail: string) => sendProblem(req, res, status, code, detail);
  return (req: Request, res: Response, next: NextFunction): void => {
    // `/mcp` runs the same checks in McpRequestMiddleware, with its own allow-lists.
    if (req.path === '/mcp' || req.path.startsWith('/mcp/')) return next();
    if (checkHost && !hostAllowed(req.headers.host, policy)) {
      return void refuse(req, res, 403, 'forbidden', `Host "${req.headers.host ?? ''}" is not allowed; add it to SEXTANT_ALLOWED_HOSTS`);
    }
    if (STATE_CHANGING.has(req.method)) {
      if (!originAllowed(req.headers.origin, policy, req.headers.host)) {
        return void refuse(req, res, 403, 'forbidden', `Cross-origin ${req.method} from "${req.headers.origin}" refused; add the origin to SEXTANT_CORS_ORIGINS to allow it`);
      }
      const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
      const contentType = req.headers['content-type'];
      // A declared type that is not JSON is refused even with an empty body: it is never what a route takes.
      if ((hasBody || contentType !== undefined) && !JSON_TYPE.test(contentType ?? '')) {
        return void refuse(req, res, 415, 'unsupported_media_type', `Request bodies must be JSON (Content-Type: application/json); got "${req.headers['content-type'] ?? 'none'}"`);
      }
    }
    next();
  };
}

/** The same Host and Origin checks for socket.io handshakes (WebSockets are not covered by CORS). */
export function socketOriginMiddleware(config: AppConfig) {
  const policy = originPolicy(config);
  const checkHost = isLocalMode(config) || config.http.allowedHosts.length > 0;
  return (socket: Socket, next: (err?: Error) => void): void => {
    const { host, origin } = socket.handshake.headers;
    let message: string | null = null;
    if (checkHost && !hostAllowed(host, policy)) message = `Host "${host ?? ''}" is not allowed; add it to SEXTANT_ALLOWED_HOSTS`;
    else if (!originAllowed(origin, policy, host)) message = `Origin "${origin}" is not allowed; add it to SEXTANT_CORS_ORIGINS`;
    if (!message) return next();
    const refusal = new Error(message) as Error & { data?: unknown };
    refusal.data = { ...problem(403, 'forbidden', message, null), message };
    next(refusal);
  };
}
