import { EvalRunFileSchema, type EvalRunFile } from '@sextant/contracts';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Reads and validates a run file (`{"runs": {strategy: {queryId: [paths]}}, "latency_ms": {...}}`).
 *
 * @example
 * const run = await readRunFile('out.json'); run.runs.rrf['9b1e0d4'] // ['lib/b.js', 'lib/a.js']
 */
export async function readRunFile(path: string): Promise<EvalRunFile> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read run file ${path}: ${(error as Error).message}`);
  }
  const parsed = EvalRunFileSchema.safeParse(value);
  if (!parsed.success) {
    throw new Error(`${path} is not a valid run file: ${parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}

/** Writes a run file exactly in FORMAT.md's shape (validated first; pretty-printed, trailing newline). */
export async function writeRunFile(path: string, runFile: EvalRunFile): Promise<void> {
  const parsed = EvalRunFileSchema.parse(runFile);
  const out: EvalRunFile = { runs: parsed.runs, ...(parsed.latency_ms ? { latency_ms: parsed.latency_ms } : {}) };
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(out, null, 2) + '\n', 'utf8');
}
