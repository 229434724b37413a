import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createGithubLikeServer } = require('./github-like-stub.cjs') as {
  createGithubLikeServer: (options: StubOptions, onCall?: (tool: string, args: Record<string, unknown>) => void) => { connect: (t: unknown) => Promise<void>; close: () => Promise<void> };
};

/** The stdio variant: run with `node` and configure it through env (STUB_FILES, STUB_DELAY_MS, STUB_MODE, STUB_SECRET). */
export const STDIO_STUB = path.join(__dirname, 'github-like-stub.cjs');

export interface StubFile {
  repo: string;
  path: string;
  content: string;
}

export interface StubOptions {
  name?: string;
  files?: StubFile[];
  delayMs?: number;
  mode?: 'normal' | 'hang' | 'crash';
  secret?: string;
}

export interface HttpStub {
  url: string;
  /** Every HTTP request's headers, and every tool call with its arguments. */
  requests: Array<http.IncomingHttpHeaders>;
  calls: Array<{ tool: string; args: Record<string, unknown> }>;
  close: () => Promise<void>;
}

/**
 * A GitHub-like MCP server over Streamable HTTP (stateless: a fresh server per request, as the
 * SDK recommends), built from the same definition as the stdio stub.
 */
export async function startHttpStub(options: StubOptions): Promise<HttpStub> {
  const requests: HttpStub['requests'] = [];
  const calls: HttpStub['calls'] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      if (options.mode === 'crash' && raw.includes('"tools/call"')) return void req.socket.destroy();
      const mcp = createGithubLikeServer({ ...options, mode: options.mode === 'crash' ? 'normal' : options.mode }, (tool, args) => calls.push({ tool, args }));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void mcp.close();
      });
      await mcp.connect(transport);
      await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    requests,
    calls,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
