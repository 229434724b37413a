import { CHARS_PER_TOKEN, truncateToLines } from './token-budget';
import { headerValue, neutraliseInstructions } from './quote-retrieved-text';

/** Something retrieved that an answer may cite: a chunk of a file (0-based inclusive lines) or a past task. */
export type AnswerSourceInput =
  | { kind: 'file'; chunkId: string; repoId: string; repoName: string | null; path: string; startLine: number; endLine: number; text: string }
  | { kind: 'task'; taskId: string; title: string; text: string };

/** A source as the model saw it: its number, the text it got (budgeted, neutralised) and the block that carried it. */
export type NumberedSource = AnswerSourceInput & { n: number; block: string; truncated: boolean };

/** `path:a-b` (1-based) for files, the task id for tasks. */
export function sourceLabel(s: AnswerSourceInput): string {
  return s.kind === 'file' ? `${s.path}:${s.startLine + 1}-${s.endLine + 1}` : s.taskId;
}

function sourceKey(s: AnswerSourceInput): string {
  return s.kind === 'file' ? `file:${s.chunkId}` : `task:${s.taskId}`;
}

function header(s: AnswerSourceInput, n: number): string {
  const attrs = s.kind === 'file' ? `kind="file" ref="${headerValue(sourceLabel(s))}" id="${headerValue(s.chunkId)}"` : `kind="task" ref="${headerValue(s.taskId)}" title="${headerValue(s.title)}"`;
  return `<source n="${n}" ${attrs}>\n`;
}
const FOOTER = '\n</source>';

/**
 * The sources of one answer, numbered in the order they are added, within one budget of
 * `maxTokens` (~{@link CHARS_PER_TOKEN} characters per token) shared by every step: the
 * first retrieval and each later search or fetch the model asks for. A source's whole
 * block (header, text, footer) is paid from the budget; text is cut at a line boundary
 * with a truncation marker when it does not fit, and a source whose header alone no longer
 * fits is not added. Adding a source already present returns the existing number.
 *
 * @example
 * const ctx = new AnswerContext({ maxTokens: 6000 });
 * const added = ctx.add([{ kind: 'task', taskId: 'T-1', title: 'Fix login', text: 'Sessions expired early.' }]);
 * added[0].n // 1
 */
export class AnswerContext {
  private readonly byKey = new Map<string, NumberedSource>();
  private readonly ordered: NumberedSource[] = [];
  private remaining: number;
  readonly budgetChars: number;

  constructor({ maxTokens, charsPerToken = CHARS_PER_TOKEN }: { maxTokens: number; charsPerToken?: number }) {
    this.budgetChars = Math.max(0, Math.floor(maxTokens * charsPerToken));
    this.remaining = this.budgetChars;
  }

  /**
   * Adds sources in order; returns those added (or already present), with their numbers.
   * With `rereadTruncated` (a fetch), a source present only in part is added again, whole if it fits.
   * `maxChars` caps what this call may spend, so a first retrieval leaves room for later steps.
   */
  add(inputs: readonly AnswerSourceInput[], { rereadTruncated = false, maxChars = Infinity }: { rereadTruncated?: boolean; maxChars?: number } = {}): NumberedSource[] {
    const out: NumberedSource[] = [];
    const floor = Math.max(0, this.remaining - maxChars);
    for (const input of inputs) {
      const existing = this.byKey.get(sourceKey(input));
      if (existing && !(rereadTruncated && existing.truncated)) {
        out.push(existing);
        continue;
      }
      const n = this.ordered.length + 1;
      const head = header(input, n);
      const room = this.remaining - floor - head.length - FOOTER.length;
      if (room <= 0) continue;
      const quoted = neutraliseInstructions(input.text).text;
      const body = truncateToLines(quoted.endsWith('\n') || !quoted ? quoted : `${quoted}\n`, room);
      if (!body.text.trim() || body.text.startsWith('… [truncated')) continue;
      const text = body.text.replace(/\n$/, '');
      const block = head + text + FOOTER;
      this.remaining -= block.length;
      const source: NumberedSource = { ...input, text, n, block, truncated: body.truncated };
      this.byKey.set(sourceKey(input), source);
      this.ordered.push(source);
      out.push(source);
    }
    return out;
  }

  get sources(): readonly NumberedSource[] {
    return this.ordered;
  }

  get(n: number): NumberedSource | undefined {
    return this.ordered[n - 1];
  }

  /** Characters of source blocks sent so far (never more than `budgetChars`). */
  get usedChars(): number {
    return this.budgetChars - this.remaining;
  }

  get usedTokens(): number {
    return Math.ceil(this.usedChars / CHARS_PER_TOKEN);
  }
}

/** The blocks of `sources`, one after another: what a prompt or a tool result carries. */
export function renderSources(sources: readonly NumberedSource[]): string {
  return sources.map((s) => s.block).join('\n');
}
