import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/** What the next request should get instead of a normal answer. */
export type FakeFault =
  | { kind: 'status'; status: number; retryAfter?: string; message?: string }
  | { kind: 'wrong-dimensions'; dimensions: number }
  | { kind: 'slow'; delayMs: number };

export interface RecordedRequest {
  body: { model: string; input: string | string[]; dimensions?: number; encoding_format?: string };
  authorization?: string;
  at: number;
}

/**
 * A deterministic vector for `text` (unnormalised, positive and negative components), the
 * way a real model would always return the same vector for the same input.
 */
export function fakeVector(text: string, dimensions: number): number[] {
  const out: number[] = [];
  let block = Buffer.alloc(0);
  for (let i = 0; out.length < dimensions; i++) {
    if (i * 4 >= block.length) block = Buffer.concat([block, createHash('sha256').update(`${text}\u0000${block.length}`).digest()]);
    out.push(block.readInt32LE(i * 4) / 2 ** 31);
  }
  return out;
}

/**
 * An OpenAI-compatible embeddings server on a random local port: `POST /v1/embeddings`
 * with float or base64 encoding, items returned in reverse order (with correct `index`, as
 * the API allows), and a queue of faults (`fail(...)`) consumed one per request.
 */
export class FakeOpenAIServer {
  readonly requests: RecordedRequest[] = [];
  private readonly faults: FakeFault[] = [];
  private persistentFault?: FakeFault;
  private server?: Server;

  constructor(private readonly dimensions: number) {}

  get baseURL(): string {
    const { port } = this.server!.address() as AddressInfo;
    return `http://127.0.0.1:${port}/v1`;
  }

  /** Queues faults for the next requests, in order. */
  fail(...faults: FakeFault[]): this {
    this.faults.push(...faults);
    return this;
  }

  /** Makes every request fail the same way until cleared with `failAlways(undefined)`. */
  failAlways(fault: FakeFault | undefined): this {
    this.persistentFault = fault;
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') return this.send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    let body: RecordedRequest['body'];
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return this.send(res, 400, { error: { message: 'invalid JSON' } });
    }
    this.requests.push({ body, authorization: req.headers.authorization, at: Date.now() });

    const fault = this.faults.shift() ?? this.persistentFault;
    let dimensions = body.dimensions ?? this.dimensions;
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = fault.retryAfter ? { 'retry-after': fault.retryAfter } : {};
      return this.send(res, fault.status, { error: { message: fault.message ?? `injected ${fault.status}`, type: 'server_error' } }, headers);
    }
    if (fault?.kind === 'slow') await new Promise((r) => setTimeout(r, fault.delayMs).unref());
    if (fault?.kind === 'wrong-dimensions') dimensions = fault.dimensions;
    if (res.destroyed) return;

    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    if (inputs.some((s) => typeof s !== 'string' || s.length === 0)) return this.send(res, 400, { error: { message: "'$.input' is invalid" } });
    const data = inputs.map((text, index) => {
      const vector = fakeVector(text, dimensions);
      const embedding = body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    this.send(res, 200, { object: 'list', model: body.model, data: data.reverse(), usage: { prompt_tokens: 1, total_tokens: 1 } });
  }

  private send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  }
}
