/**
 * A GitHub-like MCP server for tests, built with the SDK's own server classes: `search_code`
 * (GitHub's body: {total_count, items: [{name, path, html_url, repository: {full_name}}]}) and
 * `get_file_contents`. Behaviour comes from its env (which is all it gets): STUB_FILES (JSON
 * [{repo, path, content}]), STUB_DELAY_MS, STUB_MODE (normal | hang | crash), STUB_SECRET.
 * Every answer reports the env names it saw, so tests can check nothing leaked in.
 * Run over stdio directly (`node github-like-stub.cjs`), or imported for Streamable HTTP.
 */
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { z } = require('zod');

function createGithubLikeServer(options, onCall) {
  const files = options.files ?? [];
  const delayMs = options.delayMs ?? 0;
  const mode = options.mode ?? 'normal';
  const server = new McpServer({ name: options.name ?? 'github-like', version: '1.0.0' });
  server.registerTool('search_repositories', { description: 'Search repositories', inputSchema: { query: z.string() } }, async () => ({ content: [{ type: 'text', text: JSON.stringify({ items: [] }) }] }));
  server.registerTool(
    'search_code',
    { description: 'Search code', inputSchema: { query: z.string(), perPage: z.number().optional() } },
    async ({ query, perPage }, extra) => {
      onCall?.('search_code', { query, perPage }, extra);
      if (mode === 'crash') process.exit(3);
      if (mode === 'hang') await new Promise(() => undefined);
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      const words = String(query).toLowerCase().split(/\s+/).filter(Boolean);
      const hits = files.filter((f) => words.some((w) => f.content.toLowerCase().includes(w) || f.path.toLowerCase().includes(w))).slice(0, perPage ?? 30);
      const body = {
        total_count: hits.length,
        items: hits.map((f) => ({ name: f.path.split('/').pop(), path: f.path, sha: 'abc', html_url: `https://github.example/${f.repo}/blob/main/${f.path}`, repository: { full_name: f.repo }, env_seen: Object.keys(process.env).sort() })),
      };
      return { content: [{ type: 'text', text: JSON.stringify(body) }] };
    },
  );
  server.registerTool(
    'get_file_contents',
    { description: 'Get a file', inputSchema: { owner: z.string(), repo: z.string(), path: z.string() } },
    async ({ owner, repo, path }, extra) => {
      onCall?.('get_file_contents', { owner, repo, path }, extra);
      const f = files.find((x) => x.repo === `${owner}/${repo}` && x.path === path);
      if (!f) return { isError: true, content: [{ type: 'text', text: 'not found' }] };
      return { content: [{ type: 'text', text: f.content + (options.secret ? `\nconst token = "${options.secret}";\n` : '') }] };
    },
  );
  return server;
}

module.exports = { createGithubLikeServer };

if (require.main === module) {
  const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
  const server = createGithubLikeServer({
    name: 'stdio-github',
    files: JSON.parse(process.env.STUB_FILES || '[]'),
    delayMs: Number(process.env.STUB_DELAY_MS || 0),
    mode: process.env.STUB_MODE || 'normal',
    secret: process.env.STUB_SECRET,
  });
  if (process.env.STUB_PIDFILE) require('node:fs').writeFileSync(process.env.STUB_PIDFILE, String(process.pid));
  // A grandchild in the same process group: removal must end it too.
  if (process.env.STUB_GRANDCHILD_PIDFILE) {
    const child = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    require('node:fs').writeFileSync(process.env.STUB_GRANDCHILD_PIDFILE, String(child.pid));
  }
  server.connect(new StdioServerTransport());
}
