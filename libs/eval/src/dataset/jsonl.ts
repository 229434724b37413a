import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';

/** A line of a JSONL file that failed to parse or validate. */
export interface JsonlLineError {
  line: number;
  message: string;
}

/** Options for {@link readJsonl}. */
export interface ReadJsonlOptions {
  /** 'throw' (default): any bad line fails the read, naming file and lines. 'skip': bad lines are returned in `errors`. */
  onInvalid?: 'throw' | 'skip';
}

/**
 * Reads a JSON-lines file, validating each non-blank line with a zod schema.
 *
 * @example
 * const { items } = await readJsonl('data/tasks.jsonl', EvalTaskSchema);
 */
export async function readJsonl<S extends z.ZodType>(path: string, schema: S, options: ReadJsonlOptions = {}): Promise<{ items: Array<z.output<S>>; errors: JsonlLineError[] }> {
  const { onInvalid = 'throw' } = options;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const items: Array<z.output<S>> = [];
  const errors: JsonlLineError[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      errors.push({ line: i + 1, message: `invalid JSON (${(error as Error).message})` });
      return;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) items.push(parsed.data);
    else errors.push({ line: i + 1, message: parsed.error.issues.map((iss) => `${iss.path.join('.') || '(line)'}: ${iss.message}`).join('; ') });
  });
  if (errors.length > 0 && onInvalid === 'throw') {
    const shown = errors.slice(0, 5).map((e) => `  line ${e.line}: ${e.message}`).join('\n');
    throw new Error(`${path} has ${errors.length} invalid line(s):\n${shown}${errors.length > 5 ? '\n  ...' : ''}`);
  }
  return { items, errors };
}

/** Writes items as JSON lines (one object per line, trailing newline), creating the directory. */
export async function writeJsonl(path: string, items: readonly unknown[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, items.map((item) => JSON.stringify(item)).join('\n') + (items.length ? '\n' : ''), 'utf8');
}
