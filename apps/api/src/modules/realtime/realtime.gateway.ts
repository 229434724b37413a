import { Logger } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { OnGatewayConnection, OnGatewayDisconnect, OnGatewayInit, SubscribeMessage, WebSocketGateway, WebSocketServer } from '@nestjs/websockets';
import {
  FeedbackRateRequestSchema,
  SearchCancelEventSchema,
  SearchRequestSchema,
  SearchStartEventSchema,
  type ClientToServerEvents,
  type SearchCancelAck,
  type FeedbackRecordedEvent,
  type IndexProgressEvent,
  type ServerToClientEvents,
  type WeightsUpdatedEvent,
} from '@sextant/contracts';
import type { Server, Socket } from 'socket.io';
import { socketProblem, socketRefusal } from '../../common/problem-details';
import type { AuthContext } from '../auth/auth-context';
import { AuthService } from '../auth/auth.service';
import { CallerRateLimit } from '../auth/caller-rate-limit';
import { KeyRevocations } from '../auth/key-revocations';
import { socketAuthMiddleware } from '../auth/socket-auth.middleware';
import { FeedbackService } from '../feedback/feedback.service';
import { SearchService } from '../fusion/search.service';
import { IndexEvents } from '../indexing/services/indexing.tokens';
import { FeedbackEvents, workspaceRoom } from './realtime.events';

type SextantSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, { auth?: AuthContext }>;

/**
 * The only place that talks to sockets: authenticates the handshake, keeps one room per
 * workspace, streams searches (a partial after each source answers), and forwards
 * indexing, feedback and weight events to the workspace they belong to.
 */
@WebSocketGateway()
export class RealtimeGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger(RealtimeGateway.name);
  @WebSocketServer() private server!: Server<ClientToServerEvents, ServerToClientEvents>;
  /** The running search of each socket: a new search:start cancels the previous one. */
  private readonly running = new Map<string, { requestId: string; controller: AbortController }>();
  /** Stops watching each socket's key when it disconnects. */
  private readonly unwatch = new Map<string, () => void>();

  constructor(
    private readonly auth: AuthService,
    private readonly search: SearchService,
    private readonly feedback: FeedbackService,
    private readonly rateLimit: CallerRateLimit,
    private readonly revocations: KeyRevocations,
  ) {}

  /** Counts the message against the caller's rate limit; the refusal text when over it. */
  private async overLimit(socket: SextantSocket): Promise<string | null> {
    const retryAfterS = await this.rateLimit.consume(socket.data.auth!, socket.handshake.address);
    return retryAfterS === null ? null : this.rateLimit.describe(retryAfterS);
  }

  afterInit(server: Server): void {
    server.use(socketAuthMiddleware(this.auth) as never);
  }

  async handleConnection(socket: SextantSocket): Promise<void> {
    const auth = socket.data.auth;
    if (!auth) return void socket.disconnect(true);
    this.unwatch.set(
      socket.id,
      this.revocations.watch(auth, () => {
        socket.emit('auth:revoked', { message: 'The API key this connection uses was revoked; reconnect with a valid key' });
        socket.disconnect(true);
      }),
    );
    await socket.join(workspaceRoom(auth.workspaceId));
    await this.broadcastPresence(auth.workspaceId);
  }

  async handleDisconnect(socket: SextantSocket): Promise<void> {
    this.running.get(socket.id)?.controller.abort();
    this.running.delete(socket.id);
    this.unwatch.get(socket.id)?.();
    this.unwatch.delete(socket.id);
    const auth = socket.data.auth;
    if (auth) await this.broadcastPresence(auth.workspaceId).catch(() => undefined);
  }

  @SubscribeMessage('search:start')
  async onSearchStart(socket: SextantSocket, payload: unknown): Promise<void> {
    const parsed = SearchStartEventSchema.safeParse(payload);
    const requestId = typeof (payload as { request_id?: unknown })?.request_id === 'string' ? ((payload as { request_id: string }).request_id.slice(0, 100) as string) : null;
    if (!parsed.success) {
      return void socket.emit('search:error', { request_id: requestId, ...socketRefusal(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; ')) });
    }
    const request = SearchRequestSchema.safeParse({ ...parsed.data.options, query: parsed.data.query });
    if (!request.success) {
      return void socket.emit('search:error', { request_id: requestId, ...socketRefusal(400, request.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')) });
    }
    const auth = socket.data.auth!;
    // Registered before anything is awaited, so a search:cancel sent right after the start finds it.
    this.running.get(socket.id)?.controller.abort();
    const controller = new AbortController();
    const id = parsed.data.request_id;
    this.running.set(socket.id, { requestId: id, controller });
    const limited = await this.overLimit(socket);
    if (limited) {
      if (this.running.get(socket.id)?.controller === controller) this.running.delete(socket.id);
      return void socket.emit('search:error', { request_id: requestId, ...socketRefusal(429, limited) });
    }
    if (controller.signal.aborted) return;
    try {
      const res = await this.search.search(auth.workspaceId, request.data, {
        principal: auth.principal,
        signal: controller.signal,
        onPartial: (p) => {
          if (!controller.signal.aborted) socket.emit('search:partial', { request_id: id, ...p });
        },
      });
      if (controller.signal.aborted) return;
      socket.emit('search:done', {
        request_id: id,
        results: res.results,
        limits: res.limits,
        timings_ms: res.timings_ms,
        search_id: res.search_id,
        query_class: res.query_class,
        strategy: res.strategy,
        weights_version: res.weights_version,
        match: res.match,
        ...(res.match_reason ? { match_reason: res.match_reason } : {}),
        ...(res.unknown_terms ? { unknown_terms: res.unknown_terms } : {}),
        ...(res.external ? { external: res.external } : {}),
      });
    } catch (err) {
      if (controller.signal.aborted) return;
      const { unexpected, ...failure } = socketProblem(err, 'search failed');
      if (unexpected) this.logger.error({ err }, 'Streamed search failed');
      socket.emit('search:error', { request_id: id, ...failure });
    } finally {
      if (this.running.get(socket.id)?.controller === controller) this.running.delete(socket.id);
    }
  }

  /** Stops the socket's running search (its sources are aborted; no more partials or done) and acknowledges whether it did. */
  @SubscribeMessage('search:cancel')
  onSearchCancel(socket: SextantSocket, payload: unknown): SearchCancelAck | undefined {
    const parsed = SearchCancelEventSchema.safeParse(payload);
    if (!parsed.success) return void socket.emit('search:error', { request_id: null, ...socketRefusal(400, 'search:cancel needs { request_id }') });
    const running = this.running.get(socket.id);
    if (running?.requestId !== parsed.data.request_id) return { request_id: parsed.data.request_id, cancelled: false };
    running.controller.abort();
    this.running.delete(socket.id);
    return { request_id: parsed.data.request_id, cancelled: true };
  }

  /** Rate a result like `POST /v1/feedback`; the ack gets the response, failures (readers, unknown ids) a `feedback:error`. */
  @SubscribeMessage('feedback:rate')
  async onFeedbackRate(socket: SextantSocket, payload: unknown): Promise<unknown> {
    const ids = payload as { search_id?: unknown; item_id?: unknown } | null;
    const ref = { search_id: typeof ids?.search_id === 'string' ? ids.search_id.slice(0, 100) : null, item_id: typeof ids?.item_id === 'string' ? ids.item_id.slice(0, 1200) : null };
    const parsed = FeedbackRateRequestSchema.safeParse(payload);
    if (!parsed.success) {
      const refusal = socketRefusal(400, parsed.error.issues.map((i) => `${i.path.join('.') || 'payload'}: ${i.message}`).join('; '));
      socket.emit('feedback:error', { ...ref, ...refusal });
      return refusal;
    }
    const limited = await this.overLimit(socket);
    if (limited) {
      const refusal = socketRefusal(429, limited);
      socket.emit('feedback:error', { ...ref, ...refusal });
      return refusal;
    }
    try {
      return await this.feedback.rate(socket.data.auth!, parsed.data);
    } catch (err) {
      const { unexpected, ...failure } = socketProblem(err, 'rating failed');
      if (unexpected) this.logger.error({ err }, 'Socket rating failed');
      socket.emit('feedback:error', { ...ref, ...failure });
      return failure;
    }
  }

  // Progress frames are volatile: a slow client drops them instead of buffering; done/error are reliable.
  @OnEvent(IndexEvents.Progress)
  onIndexProgress(e: IndexProgressEvent): void {
    this.server?.to(workspaceRoom(e.workspace_id)).volatile.emit('index:progress', e);
  }

  @OnEvent(IndexEvents.Done)
  onIndexDone(e: IndexProgressEvent): void {
    this.server?.to(workspaceRoom(e.workspace_id)).emit('index:done', e);
  }

  @OnEvent(IndexEvents.Error)
  onIndexError(e: IndexProgressEvent): void {
    this.server?.to(workspaceRoom(e.workspace_id)).emit('index:error', e);
  }

  @OnEvent(FeedbackEvents.Recorded)
  onFeedback(e: FeedbackRecordedEvent): void {
    this.server?.to(workspaceRoom(e.workspace_id)).emit('feedback:recorded', e);
  }

  @OnEvent(FeedbackEvents.WeightsUpdated)
  onWeights(e: WeightsUpdatedEvent): void {
    this.server?.to(workspaceRoom(e.workspace_id)).emit('weights:updated', e);
  }

  /** Who is connected to the workspace (across processes when the Redis adapter is on). */
  private async broadcastPresence(workspaceId: string): Promise<void> {
    const sockets = await this.server.in(workspaceRoom(workspaceId)).fetchSockets();
    const counts = new Map<string, number>();
    const names = new Map<string, string>();
    for (const s of sockets) {
      const auth = (s.data as { auth?: AuthContext }).auth;
      const principal = auth?.principal ?? 'unknown';
      counts.set(principal, (counts.get(principal) ?? 0) + 1);
      if (auth?.name) names.set(principal, auth.name);
    }
    this.server.to(workspaceRoom(workspaceId)).emit('presence', { workspace_id: workspaceId, members: [...counts].map(([principal, connections]) => ({ principal, name: names.get(principal) ?? null, connections })) });
  }
}
