import { Logger } from '@nestjs/common';
import { OnGatewayDisconnect, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import { AskCancelEventSchema, AskRequestSchema, AskStartEventSchema, type AskCancelAck, type AskClientToServerEvents, type AskServerToClientEvents } from '@sextant/contracts';
import type { Socket } from 'socket.io';
import type { AuthContext } from '../auth/auth-context';
import { CallerRateLimit } from '../auth/caller-rate-limit';
import { socketRefusal } from '../../common/problem-details';
import { askProblem } from './ask.errors';
import { AskService } from './ask.service';

type AskSocket = Socket<AskClientToServerEvents, AskServerToClientEvents, Record<string, never>, { auth?: AuthContext }>;

/**
 * Streamed answers over socket.io: `ask:start` → `ask:step` / `ask:token` / `ask:citation`
 * → `ask:done` or `ask:error`; `ask:cancel` (or a disconnect) stops the answer and closes
 * the request to the chat endpoint. Shares the server (and its handshake authentication)
 * with RealtimeGateway; one running answer per socket.
 */
@WebSocketGateway()
export class AskGateway implements OnGatewayDisconnect {
  private readonly logger = new Logger(AskGateway.name);
  private readonly running = new Map<string, { requestId: string; controller: AbortController }>();

  constructor(
    private readonly asks: AskService,
    private readonly rateLimit: CallerRateLimit,
  ) {}

  handleDisconnect(socket: AskSocket): void {
    this.running.get(socket.id)?.controller.abort();
    this.running.delete(socket.id);
  }

  @SubscribeMessage('ask:start')
  async onAskStart(socket: AskSocket, payload: unknown): Promise<void> {
    const requestId = typeof (payload as { request_id?: unknown })?.request_id === 'string' ? (payload as { request_id: string }).request_id.slice(0, 100) : null;
    const parsed = AskStartEventSchema.safeParse(payload);
    if (!parsed.success) return void socket.emit('ask:error', { request_id: requestId, ...socketRefusal(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')) });
    const request = AskRequestSchema.safeParse({ ...parsed.data.options, query: parsed.data.query });
    if (!request.success) return void socket.emit('ask:error', { request_id: requestId, ...socketRefusal(400, request.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')) });
    const auth = socket.data.auth;
    if (!auth) return void socket.disconnect(true);
    const id = parsed.data.request_id;
    // Registered before anything is awaited, so an ask:cancel sent right after the start finds it.
    this.running.get(socket.id)?.controller.abort();
    const controller = new AbortController();
    this.running.set(socket.id, { requestId: id, controller });
    try {
      const retryAfterS = await this.rateLimit.consume(auth, socket.handshake.address);
      if (retryAfterS !== null) return void socket.emit('ask:error', { request_id: id, ...socketRefusal(429, this.rateLimit.describe(retryAfterS)), retry_after_s: retryAfterS });
      if (controller.signal.aborted) return;
      const res = await this.asks.ask(auth.workspaceId, request.data, {
        principal: auth.principal,
        signal: controller.signal,
        onEvent: (e) => {
          if (controller.signal.aborted) return;
          if (e.type === 'step') socket.emit('ask:step', { request_id: id, ...e.step });
          else if (e.type === 'token') socket.emit('ask:token', { request_id: id, text: e.text });
          else socket.emit('ask:citation', { request_id: id, citation: e.citation });
        },
      });
      if (!controller.signal.aborted) socket.emit('ask:done', { request_id: id, ...res });
    } catch (err) {
      if (controller.signal.aborted) return;
      const { problem: p, unexpected } = askProblem(err, null);
      if (unexpected) this.logger.error({ err }, 'Streamed answer failed');
      socket.emit('ask:error', { request_id: id, type: p.type, title: p.title, status: p.status, detail: p.detail, code: p.code, error: p.code, message: p.detail, ...(typeof p.retry_after_s === 'number' ? { retry_after_s: p.retry_after_s } : {}) });
    } finally {
      if (this.running.get(socket.id)?.controller === controller) this.running.delete(socket.id);
    }
  }

  /** Stops the socket's running answer (the chat request is closed; no more events for it) and acknowledges whether it did. */
  @SubscribeMessage('ask:cancel')
  onAskCancel(socket: AskSocket, payload: unknown): AskCancelAck | undefined {
    const parsed = AskCancelEventSchema.safeParse(payload);
    if (!parsed.success) return void socket.emit('ask:error', { request_id: null, ...socketRefusal(400, 'ask:cancel needs { request_id }') });
    const running = this.running.get(socket.id);
    if (running?.requestId !== parsed.data.request_id) return { request_id: parsed.data.request_id, cancelled: false };
    running.controller.abort();
    this.running.delete(socket.id);
    return { request_id: parsed.data.request_id, cancelled: true };
  }
}
