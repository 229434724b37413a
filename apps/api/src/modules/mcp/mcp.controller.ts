import type { IncomingMessage } from 'node:http';
import { Controller, Delete, Get, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { RequestWithAuth } from '../auth/auth-context';
import { CallerRateLimit } from '../auth/caller-rate-limit';
import { Public } from '../auth/role.decorator';
import { McpServerFactory } from './mcp-server.factory';
import { mcpSdk } from '../../common/mcp-sdk';
import { sendProblem } from '../../common/problem-details';
import { sendJsonRpcError } from './mcp-request.middleware';

/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless. The global AuthGuard has already
 * authenticated the bearer key (401 + WWW-Authenticate otherwise, local-mode rules
 * included) and rate-limited it; McpRequestMiddleware has checked Host, Origin and size.
 * Every request gets its own server and transport, bound to the caller's workspace.
 */
@ApiExcludeController()
@Controller('mcp')
export class McpController {
  private readonly logger = new Logger('Mcp');

  constructor(
    private readonly servers: McpServerFactory,
    private readonly rateLimit: CallerRateLimit,
  ) {}

  @Post()
  async handle(@Req() req: Request & RequestWithAuth, @Res() res: Response): Promise<void> {
    if (!req.auth) return sendProblem(req, res, 401, 'unauthenticated', 'Not authenticated');
    // The guard counted the HTTP request; a JSON-RPC batch is that many calls, each counted.
    if (Array.isArray(req.body)) {
      for (let extra = 1; extra < req.body.length; extra++) {
        const retryAfterS = await this.rateLimit.consume(req.auth, req.ip ?? '');
        if (retryAfterS !== null) {
          res.setHeader('Retry-After', String(retryAfterS));
          return sendProblem(req, res, 429, 'rate_limited', `${this.rateLimit.describe(retryAfterS)} (a JSON-RPC batch counts each of its ${req.body.length} calls)`);
        }
      }
    }
    const server = this.servers.create(req.auth, 'http');
    const transport = new (mcpSdk().StreamableHTTPServerTransport)({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      // Handlers take the caller from the server they were built for, not from the transport's authInfo.
      await transport.handleRequest(req as IncomingMessage, res, req.body);
    } catch (err) {
      this.logger.error({ err }, 'MCP request failed');
      if (!res.headersSent) sendJsonRpcError(res, 500, 'Internal server error', -32603);
    }
  }

  /** Stateless mode has no server-initiated stream and no session to end. */
  @Public()
  @Get()
  streamNotSupported(@Req() req: Request, @Res() res: Response): void {
    res.setHeader('Allow', 'POST');
    sendProblem(req, res, 405, 'method_not_allowed', 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST');
  }

  @Public()
  @Delete()
  sessionNotSupported(@Req() req: Request, @Res() res: Response): void {
    res.setHeader('Allow', 'POST');
    sendProblem(req, res, 405, 'method_not_allowed', 'Method not allowed: this MCP endpoint is stateless and has no sessions to delete');
  }
}
