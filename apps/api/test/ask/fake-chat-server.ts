import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake endpoint does with one `POST /v1/chat/completions`. */
export type ChatScript =
  /** Streams these content pieces, one SSE chunk each, then finish_reason "stop". */
  | { tokens: string[]; delayMs?: number }
  /** Streams tool calls (arguments split into fragments, as the real API does), then finish_reason "tool_calls". */
  | { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Accepts the request and never answers. */
  | { hang: true }
  /** Streams these pieces, then stalls with the connection open. */
  | { tokensThenHang: string[] }
  /** Decides from the request (e.g. cites the source numbers the prompt gave a file). */
  | { respond: (body: ReceivedChat['body']) => ChatScript };

export interface ReceivedChat {
  body: {
    model: string;
    stream?: boolean;
    messages: Array<{ role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }>;
    tools?: Array<{ function: { name: string } }>;
  };
  headers: http.IncomingHttpHeaders;
  /** Resolves when the client closed the connection before the response ended (a cancel or a timeout). */
  closedEarly: Promise<void>;
  closedEarlyNow: () => boolean;
}

/**
 * An OpenAI-compatible chat endpoint written for the tests: `POST /v1/chat/completions`
 * with `stream: true` answers with `data: {chat.completion.chunk}` lines and `data: [DONE]`,
 * like the real API. Each request takes the next script; when none is queued it answers
 * `fallback`. Every request body is kept, so tests assert on the prompt.
 */
export class FakeChatServer {
  readonly received: ReceivedChat[] = [];
  private readonly queue: ChatScript[] = [];
  private readonly server: http.Server;
  private readonly sockets = new Set<import('node:net').Socket>();
  fallback: ChatScript = { tokens: ['No', ' script.'] };
  url = '';

  constructor() {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  enqueue(...scripts: ChatScript[]): void {
    this.queue.push(...scripts);
  }

  reset(): void {
    this.queue.length = 0;
    this.received.length = 0;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
      return;
    }
    let closed = false;
    let onClosed: () => void = () => undefined;
    const closedEarly = new Promise<void>((resolve) => (onClosed = resolve));
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        onClosed();
      }
    });
    this.received.push({ body: JSON.parse(Buffer.concat(chunks).toString('utf8')), headers: req.headers, closedEarly, closedEarlyNow: () => closed });
    let script = this.queue.shift() ?? this.fallback;
    while ('respond' in script) script = script.respond(this.received.at(-1)!.body);
    const model = this.received.at(-1)!.body.model;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const openStream = () => res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });

    if ('hang' in script) return;
    if ('status' in script) {
      res.writeHead(script.status, { 'content-type': 'application/json', ...script.headers }).end(JSON.stringify(script.body ?? { error: { message: `fake failure ${script.status}`, type: 'server_error' } }));
      return;
    }
    openStream();
    res.write(chunk({ role: 'assistant', content: '' }));
    if ('tokensThenHang' in script) {
      for (const t of script.tokensThenHang) res.write(chunk({ content: t }));
      return;
    }
    if ('toolCalls' in script) {
      script.toolCalls.forEach((call, index) => {
        const args = JSON.stringify(call.arguments);
        const cut = Math.max(1, Math.floor(args.length / 2));
        res.write(chunk({ tool_calls: [{ index, id: `call_${this.received.length}_${index}`, type: 'function', function: { name: call.name, arguments: args.slice(0, cut) } }] }));
        res.write(chunk({ tool_calls: [{ index, function: { arguments: args.slice(cut) } }] }));
      });
      res.write(chunk({}, 'tool_calls'));
      res.end('data: [DONE]\n\n');
      return;
    }
    for (const t of script.tokens) {
      if (closed) return;
      res.write(chunk({ content: t }));
      if (script.delayMs) await new Promise((r) => setTimeout(r, script.delayMs));
    }
    if (closed) return;
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  }
}

/** The text of every `<source>` block in a prompt (user and tool messages), as the model received it. */
export function sourceBlocks(body: ReceivedChat['body']): string[] {
  return body.messages.flatMap((m) => (typeof m.content === 'string' ? (m.content.match(/<source n="\d+"[^>]*>[\s\S]*?\n<\/source>/g) ?? []) : []));
}

/** The number the prompt gave the source whose ref starts with `ref` (a path or a task id). */
export function sourceNumber(body: ReceivedChat['body'], ref: string): number | undefined {
  for (const block of sourceBlocks(body)) {
    const m = /^<source n="(\d+)"[^>]*\bref="([^"]*)"/.exec(block);
    if (m && m[2].startsWith(ref)) return Number(m[1]);
  }
  return undefined;
}

/** The chunk id in the header of the source numbered `n`. */
export function sourceChunkId(body: ReceivedChat['body'], n: number): string | undefined {
  for (const block of sourceBlocks(body)) {
    const m = new RegExp(`^<source n="${n}"[^>]*\\bid="([^"]*)"`).exec(block);
    if (m) return m[1];
  }
  return undefined;
}
