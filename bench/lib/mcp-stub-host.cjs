/**
 * Hosts GitHub-like MCP servers over Streamable HTTP in their own process (so their CPU does
 * not share the benchmarked server's event loop). Reads [{delayMs, files}] as JSON from argv[2],
 * prints {"urls": [...]} once listening, exits when stdin closes.
 */
const http = require('node:http');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { createGithubLikeServer } = require('../../apps/api/test/external-sources/github-like-stub.cjs');

async function main() {
  const specs = JSON.parse(process.argv[2]);
  const urls = [];
  for (const spec of specs) {
    const server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', async () => {
        const mcp = createGithubLikeServer(spec);
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on('close', () => {
          transport.close();
          mcp.close();
        });
        await mcp.connect(transport);
        await transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined);
      });
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    urls.push(`http://127.0.0.1:${server.address().port}/mcp`);
  }
  process.stdout.write(`${JSON.stringify({ urls })}\n`);
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
}
main();
