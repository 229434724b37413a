import { Inject, Injectable } from '@nestjs/common';
import { SearchRequestSchema, type AskCitation, type AskResponse, type AskStatus, type AskStep, type ParsedAskRequest } from '@sextant/contracts';
import {
  ANSWER_TOOLS,
  AnswerContext,
  buildAnswerMessages,
  CHUNK_INDEX,
  CitationStream,
  mapCitations,
  toCitation,
  toolResultContent,
  type AnswerSourceInput,
  type ChatMessage,
  type ChatToolCall,
  type ChunkIndex,
} from '@sextant/retrieval';
import { SearchService } from '../fusion/search.service';
import { IndexingService } from '../indexing/services/indexing.service';
import { TaskHistoryService } from '../task-history/task-history.service';
import { ASK_DISABLED_MESSAGE, AskError, AskErrorCode } from './ask.errors';
import { CHAT_MODEL, type ChatModel } from './chat-model.port';

/** What an answer streams while it is being written. */
export type AskEvent = { type: 'step'; step: AskStep } | { type: 'token'; text: string } | { type: 'citation'; citation: AskCitation };

export interface AskOptions {
  principal?: string;
  signal?: AbortSignal;
  onEvent?: (event: AskEvent) => void;
}

/** Share of the context budget the first retrieval may take; the rest is for the model's own searches and fetches. */
const FIRST_RETRIEVAL_SHARE = 0.6;
const TOOL_SEARCH_K = 5;
const TASK_TEXT_CHARS = 1500;

/**
 * Ask: a grounded, cited answer. Runs the fused search (code chunks + similar past tasks),
 * quotes what it found as numbered sources within a token budget, and streams the chat
 * model's answer; the model may search and fetch a bounded number of times (each a step).
 * Prompt, budget and citation logic are in libs/retrieval/src/answer.
 */
@Injectable()
export class AskService {
  constructor(
    @Inject(CHAT_MODEL) private readonly chat: ChatModel | null,
    private readonly search: SearchService,
    private readonly tasks: TaskHistoryService,
    private readonly indexing: IndexingService,
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
  ) {}

  status(): AskStatus {
    if (!this.chat) return { enabled: false, model: null, base_url: null, message: ASK_DISABLED_MESSAGE };
    return { enabled: true, model: this.chat.model, base_url: this.chat.baseURL, message: `Answers come from ${this.chat.model}${this.chat.baseURL ? ` at ${this.chat.baseURL}` : ''}.` };
  }

  async ask(workspaceId: string, request: ParsedAskRequest, options: AskOptions = {}): Promise<AskResponse> {
    const chat = this.chat;
    if (!chat) throw new AskError(AskErrorCode.Disabled, ASK_DISABLED_MESSAGE);
    const started = performance.now();
    const emit = (e: AskEvent) => {
      if (!options.signal?.aborted) options.onEvent?.(e);
    };
    const steps: AskStep[] = [];
    const step = (s: Omit<AskStep, 'n'>) => {
      const full = { n: steps.length + 1, ...s };
      steps.push(full);
      emit({ type: 'step', step: full });
    };

    const context = new AnswerContext({ maxTokens: request.max_context_tokens });
    const first = await this.retrieve(workspaceId, request.query, request.top_k, request.tasks_k, request, options);
    const firstSources = context.add(first, { maxChars: Math.floor(context.budgetChars * (request.max_steps > 0 ? FIRST_RETRIEVAL_SHARE : 1)) });
    step({ kind: 'search', by: 'retrieval', input: request.query, sources: firstSources.map((s) => s.n), ...(firstSources.length ? {} : { note: 'nothing found' }) });
    const retrievalMs = performance.now() - started;

    const messages: ChatMessage[] = buildAnswerMessages({ question: request.query, sources: context.sources, toolSteps: request.max_steps });
    const citations = new CitationStream((n) => context.get(n));
    let answer = '';
    let finish: string | null = null;
    let toolSteps = 0;
    // A model that keeps calling tools it was not offered still gets a bounded number of rounds.
    for (let turn = 0; ; turn++) {
      const toolsAllowed = toolSteps < request.max_steps;
      const calls: ChatToolCall[] = [];
      let roundText = '';
      for await (const delta of chat.stream({ messages, tools: toolsAllowed ? ANSWER_TOOLS : undefined, signal: options.signal })) {
        if (delta.type === 'text') {
          roundText += delta.text;
          answer += delta.text;
          emit({ type: 'token', text: delta.text });
          for (const citation of citations.push(delta.text)) emit({ type: 'citation', citation: citation as AskCitation });
        } else if (delta.type === 'tool_call') {
          calls.push({ id: delta.id, type: 'function', function: { name: delta.name, arguments: delta.arguments } });
        } else {
          finish = delta.reason;
        }
      }
      if (!calls.length || turn >= request.max_steps + 1) break;
      messages.push({ role: 'assistant', content: roundText || null, tool_calls: calls });
      for (const call of calls) {
        if (toolSteps >= request.max_steps || !toolsAllowed) {
          messages.push({ role: 'tool', tool_call_id: call.id, content: `Step limit reached (${request.max_steps}); answer with the sources you have.` });
          continue;
        }
        toolSteps++;
        const result = await this.runTool(workspaceId, call, context, request, options);
        step(result.step);
        messages.push({ role: 'tool', tool_call_id: call.id, content: result.content });
      }
    }

    const mapped = mapCitations(answer, (n) => context.get(n));
    step({ kind: 'answer', by: 'model', input: chat.model, sources: mapped.citations.map((c) => c.n), ...(mapped.unknown.length ? { note: `cites unknown source(s) ${mapped.unknown.join(', ')}` } : {}) });
    return {
      query: request.query,
      answer,
      citations: mapped.citations as AskCitation[],
      sources: context.sources.map((s) => toCitation(s) as AskCitation),
      unknown_refs: mapped.unknown,
      steps,
      model: chat.model,
      context_tokens: context.usedTokens,
      finish_reason: finish,
      timings_ms: { retrieval: round(retrievalMs), total: round(performance.now() - started) },
    };
  }

  /** The fused search at chunk granularity with each chunk's text, then similar past tasks. */
  private async retrieve(workspaceId: string, query: string, topK: number, tasksK: number, request: Pick<ParsedAskRequest, 'filters'>, options: AskOptions): Promise<AnswerSourceInput[]> {
    const search = SearchRequestSchema.parse({ query, top_k: topK, granularity: 'chunk', ...(request.filters ? { filters: request.filters } : {}) });
    const [res, similar] = await Promise.all([
      this.search.search(workspaceId, search, { principal: options.principal, signal: options.signal, log: false }),
      tasksK > 0 ? this.tasks.findSimilarTasks(workspaceId, query, { k: tasksK, via: 'dense', signal: options.signal }) : Promise.resolve([]),
    ]);
    const chunkIds = res.results.filter((r) => r.chunk && r.chunk.end_byte > r.chunk.start_byte).map((r) => r.chunk!.id);
    const files = await this.chunkSources(workspaceId, chunkIds);
    const tasks: AnswerSourceInput[] = similar.map((t) => ({ kind: 'task', taskId: t.external_id, title: t.title, text: taskText(t) }));
    return [...files, ...tasks];
  }

  /** Chunks by id, as the MCP `fetch` tool reads them: workspace-scoped, in the requested order. */
  private async chunkSources(workspaceId: string, ids: readonly string[]): Promise<AnswerSourceInput[]> {
    if (!ids.length) return [];
    const points = await this.chunks.get(ids, { workspaceId });
    const byId = new Map(points.map((p) => [p.id, p.payload]));
    const names = new Map((await this.indexing.list(workspaceId)).map((r) => [r.id, r.name]));
    return ids
      .filter((id) => byId.has(id))
      .map((id) => {
        const p = byId.get(id)!;
        return { kind: 'file' as const, chunkId: id, repoId: p.repoId, repoName: names.get(p.repoId) ?? null, path: p.path, startLine: p.startLine, endLine: p.endLine, text: p.content };
      });
  }

  private async runTool(workspaceId: string, call: ChatToolCall, context: AnswerContext, request: ParsedAskRequest, options: AskOptions): Promise<{ step: Omit<AskStep, 'n'>; content: string }> {
    const name = call.function.name;
    let args: Record<string, unknown>;
    try {
      args = JSON.parse(call.function.arguments || '{}') as Record<string, unknown>;
    } catch {
      return { step: { kind: name === 'fetch' ? 'fetch' : 'search', by: 'model', input: call.function.arguments.slice(0, 200), sources: [], note: 'arguments were not JSON' }, content: 'Error: the arguments were not valid JSON. Call the tool again with a JSON object.' };
    }
    if (name === 'search' && typeof args.query === 'string' && args.query.trim()) {
      const query = args.query.trim().slice(0, 2000);
      const added = context.add(await this.retrieve(workspaceId, query, TOOL_SEARCH_K, 2, request, options));
      return { step: { kind: 'search', by: 'model', input: query, sources: added.map((s) => s.n), ...(added.length ? {} : { note: 'nothing new within the budget' }) }, content: toolResultContent(added, `No further sources for "${query}" (nothing found, or the context budget is used up). Answer with the sources you have.`) };
    }
    if (name === 'fetch' && Array.isArray(args.ids) && args.ids.every((id) => typeof id === 'string')) {
      const ids = (args.ids as string[]).slice(0, 5);
      const added = context.add(await this.chunkSources(workspaceId, ids), { rereadTruncated: true });
      return { step: { kind: 'fetch', by: 'model', input: ids.join(', '), sources: added.map((s) => s.n), ...(added.length ? {} : { note: 'unknown ids or no budget left' }) }, content: toolResultContent(added, 'Nothing fetched: the ids are not chunks of this workspace (use ids from source headers), or the context budget is used up.') };
    }
    return { step: { kind: name === 'fetch' ? 'fetch' : 'search', by: 'model', input: `${name}(${call.function.arguments.slice(0, 200)})`, sources: [], note: 'unknown tool or bad arguments' }, content: 'Error: call `search` with {"query": "..."} or `fetch` with {"ids": ["..."]}.' };
  }
}

function taskText(t: { title: string; body: string; outcome: string | null; files: string[]; created_at: string | null }): string {
  const parts = [`Title: ${t.title}`];
  if (t.created_at) parts.push(`Date: ${t.created_at.slice(0, 10)}`);
  if (t.body) parts.push(t.body.length > TASK_TEXT_CHARS ? `${t.body.slice(0, TASK_TEXT_CHARS)}…` : t.body);
  if (t.outcome) parts.push(`Outcome: ${t.outcome}`);
  if (t.files.length) parts.push(`Files touched: ${t.files.slice(0, 20).join(', ')}`);
  return parts.join('\n');
}

const round = (ms: number) => Math.round(ms * 10) / 10;
