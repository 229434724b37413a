import { Inject, Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';
import { hostAllowed, originPolicy, originAllowed, type OriginPolicy } from '../auth/origin-policy';

/** A JSON-RPC error body, the shape MCP clients expect from the endpoint. */
export function sendJsonRpcError(res: Response, status: number, message: string, code = -32000): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/**
 * Runs before authentication on `/mcp`: refuses requests whose Host or Origin is not
 * allowed (403; DNS-rebinding protection) and bodies over SEXTANT_MCP_BODY_LIMIT (413).
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
      return sendJsonRpcError(res, 403, `Host "${req.headers.host ?? ''}" is not allowed for /mcp; add it to SEXTANT_MCP_ALLOWED_HOSTS`);
    }
    const origin = req.headers.origin;
    if (!originAllowed(origin, this.policy)) {
      return sendJsonRpcError(res, 403, `Origin "${origin}" is not allowed for /mcp; add it to SEXTANT_MCP_ALLOWED_ORIGINS`);
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    const size = Number.isFinite(declared) ? declared : req.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(req.body));
    if (size > this.bodyLimit) {
      return sendJsonRpcError(res, 413, `Request body of ${size} bytes exceeds the MCP limit of ${this.bodyLimit} bytes (SEXTANT_MCP_BODY_LIMIT)`);
    }
    next();
  }
}
