import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { sendProblem } from '../../common/problem-details';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { hostAllowed, originPolicy, originAllowed, type OriginPolicy } from '../auth/origin-policy';

/** A JSON-RPC error body, for failures once a JSON-RPC message is being handled. */
export function sendJsonRpcError(res: Response, status: number, message: string, code = -32000): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/**
 * Runs before authentication on `/mcp`: refuses requests whose Host or Origin is not
 * allowed (403; DNS-rebinding protection), POST bodies that are not JSON (415) and bodies
 * over SEXTANT_MCP_BODY_LIMIT (413). These happen before any JSON-RPC is read, so they
 * are answered with problem details like every other HTTP refusal.
 */
@Injectable()
export class McpRequestMiddleware implements NestMiddleware {
  private readonly policy: OriginPolicy;
  private readonly bodyLimit: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.policy = originPolicy(config);
    this.bodyLimit = config.mcp.bodyLimitBytes;
  }

  use(req: Request, res: Response, next: NextFunction): void {
    if (!hostAllowed(req.headers.host, this.policy)) {
      return sendProblem(req, res, 403, 'forbidden', `Host "${req.headers.host ?? ''}" is not allowed for /mcp; add it to SEXTANT_MCP_ALLOWED_HOSTS`);
    }
    const origin = req.headers.origin;
    if (!originAllowed(origin, this.policy)) {
      return sendProblem(req, res, 403, 'forbidden', `Origin "${origin}" is not allowed for /mcp; add it to SEXTANT_MCP_ALLOWED_ORIGINS`);
    }
    if (req.method === 'POST' && !JSON_TYPE.test(req.headers['content-type'] ?? '')) {
      return sendProblem(req, res, 415, 'unsupported_media_type', `MCP requests must be JSON-RPC in JSON (Content-Type: application/json); got "${req.headers['content-type'] ?? 'none'}"`);
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    const size = Number.isFinite(declared) ? declared : req.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(req.body));
    if (size > this.bodyLimit) {
      return sendProblem(req, res, 413, 'payload_too_large', `Request body of ${size} bytes exceeds the MCP limit of ${this.bodyLimit} bytes (SEXTANT_MCP_BODY_LIMIT)`);
    }
    next();
  }
}
