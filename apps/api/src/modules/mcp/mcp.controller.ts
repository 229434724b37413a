import type { IncomingMessage } from 'node:http';
import { Controller, Delete, Get, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Request, Response } from 'express';
import type { RequestWithAuth } from '../auth/auth-context';
import { Public } from '../auth/role.decorator';
import { McpServerFactory } from './mcp-server.factory';
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

  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  async handle(@Req() req: Request & RequestWithAuth, @Res() res: Response): Promise<void> {
    if (!req.auth) return sendJsonRpcError(res, 401, 'Not authenticated');
    const server = this.servers.create(req.auth, 'http');
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
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
  streamNotSupported(@Res() res: Response): void {
    res.setHeader('Allow', 'POST');
    sendJsonRpcError(res, 405, 'Method not allowed: this MCP endpoint is stateless; send JSON-RPC requests with POST');
  }

  @Public()
  @Delete()
  sessionNotSupported(@Res() res: Response): void {
    res.setHeader('Allow', 'POST');
    sendJsonRpcError(res, 405, 'Method not allowed: this MCP endpoint is stateless and has no sessions to delete');
  }
}
