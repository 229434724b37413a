import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SAMPLE_PROJECT } from '../helpers/fixture-repo';

/** A section long enough that one chunk is well over the smallest fetch budget (256 tokens ≈ 1024 characters). */
const LONG_SECTION = Array.from({ length: 70 }, (_, i) => `Step ${i + 1}: rotate the signing keys of region ${i % 7} and record the rotation in the audit log.`).join('\n');

/** The `shop` repository of the main workspace. */
export const SHOP: Record<string, string> = {
  ...SAMPLE_PROJECT,
  'src/billing/ledger.ts': `export class Ledger {\n  private entries: Array<{ amount: number; memo: string }> = [];\n  post(amount: number, memo: string): void {\n    this.entries.push({ amount, memo });\n  }\n  balance(): number {\n    return this.entries.reduce((sum, e) => sum + e.amount, 0);\n  }\n}\n`,
  'docs/runbook.md': `# Runbook\n\n## Key rotation\n\n${LONG_SECTION}\n\n## Incidents\n\nPage the on-call engineer, then open an incident channel.\n`,
};

export const SHOP_TASKS = [
  { id: 'T-101', title: 'Customers were charged twice after a retry', body: 'Duplicate payment entries appeared on invoices when the card processor timed out.', files: ['src/billing/ledger.ts'], created_at: '2024-03-01T10:00:00Z' },
  { id: 'T-103', title: 'Login sessions expire too early', body: 'Users are logged out after five minutes.', files: ['src/auth/session.ts'], created_at: '2024-05-01T10:00:00Z' },
];

/** The `ops` repository of the second workspace: it also talks about sessions and tokens, so the same queries match in both. */
export const OPS: Record<string, string> = {
  'lib/session_refresh.py': `"""Refreshes operator sessions."""\n\nclass OperatorSessionStore:\n    def refresh(self, session_id):\n        """Refresh an operator session and its token."""\n        return session_id\n\n\ndef validate_token(token):\n    """Validates an operator token."""\n    return token.startswith("op_")\n`,
  'docs/ops.md': '# Ops\n\n## Sessions\n\nOperator sessions expire after an hour unless refreshed.\n',
};

export const OPS_TASKS = [{ id: 'OPS-7', title: 'Operator sessions expire too early', body: 'Operators are logged out during incidents.', files: ['lib/session_refresh.py'] }];

/** An SDK client connected to `POST /mcp` with an optional bearer key and extra headers. */
export async function connectClient(baseUrl: string, key?: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'sextant-e2e', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers } } });
  await client.connect(transport);
  return client;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

export const textOf = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
