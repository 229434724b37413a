import { EvalDatasetMetaSchema, EvalIssueSchema, EvalQuerySchema, EvalTaskSchema, type EvalDatasetMeta, type EvalIssue, type EvalQuery, type EvalTask } from '@sextant/contracts';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonl, writeJsonl, type ReadJsonlOptions } from './jsonl';

/** File names inside a dataset folder (shared/eval/FORMAT.md). */
export const DATASET_FILES = { corpus: 'corpus', tasks: 'tasks.jsonl', queries: 'queries.jsonl', meta: 'meta.json' } as const;

/**
 * The files a task touched, as they are named in the corpus: `files_at_cutoff` when the
 * dataset provides it (paths renamed forward to the cutoff), else `files`.
 *
 * @example
 * taskFiles({ id: 't', title: '', body: '', files: ['flask/app.py'], files_at_cutoff: ['src/flask/app.py'] }) // ['src/flask/app.py']
 */
export function taskFiles(task: Pick<EvalTask, 'files' | 'files_at_cutoff'>): string[] {
  return task.files_at_cutoff ?? task.files;
}

const TITLE_MAX = 1000;
const BODY_MAX = 100_000;
/** The title of a task whose message is empty. */
export const NO_MESSAGE_TITLE = '(no message)';

/**
 * A dataset task as the task importer takes it. Histories written by other tools put a whole
 * commit message in the title, or leave it empty: the title becomes the first non-empty line
 * (at most 1,000 characters) and everything else the body, so that no task is refused for its
 * shape and no text is lost.
 */
export function taskImportInput(task: EvalTask): { id: string; title: string; body: string; files: string[]; created_at?: string } {
  const message = `${task.title}\n\n${task.body}`.trim();
  const lines = message.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const subject = first === -1 ? NO_MESSAGE_TITLE : lines[first].trim();
  const title = subject.length > TITLE_MAX ? subject.slice(0, TITLE_MAX) : subject;
  const rest = [subject.slice(title.length), ...lines.slice(first + 1)].join('\n').trim();
  return { id: task.id, title, body: rest.slice(0, BODY_MAX), files: taskFiles(task), ...(task.created_at ? { created_at: task.created_at } : {}) };
}

/** Reads and validates `tasks.jsonl`. */
export async function readTasks(path: string, options?: ReadJsonlOptions): Promise<EvalTask[]> {
  return (await readJsonl(path, EvalTaskSchema, options)).items;
}

/** Reads and validates `queries.jsonl`. */
export async function readQueries(path: string, options?: ReadJsonlOptions): Promise<EvalQuery[]> {
  return (await readJsonl(path, EvalQuerySchema, options)).items;
}

/** Reads and validates an issues file for `makeDataset({ issues })`. */
export async function readIssues(path: string, options?: ReadJsonlOptions): Promise<EvalIssue[]> {
  return (await readJsonl(path, EvalIssueSchema, options)).items;
}

/** Reads and validates `meta.json`. */
export async function readMeta(path: string): Promise<EvalDatasetMeta> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const parsed = EvalDatasetMetaSchema.safeParse(value);
  if (!parsed.success) throw new Error(`${path} is not a valid meta.json: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** A dataset loaded by {@link readDataset}. */
export interface EvalDataset {
  dir: string;
  corpusDir: string;
  tasks: EvalTask[];
  queries: EvalQuery[];
  /** null when the folder has no meta.json (hand-made datasets). */
  meta: EvalDatasetMeta | null;
  /** Problems that do not stop an evaluation, e.g. relevant files missing from corpus/. */
  warnings: string[];
}

/**
 * Loads a dataset folder: `tasks.jsonl`, `queries.jsonl`, optional `meta.json`, and
 * checks that every relevant file exists under `corpus/` (missing ones become warnings).
 *
 * @example
 * const { tasks, queries, corpusDir } = await readDataset('datasets/flask');
 */
export async function readDataset(dir: string, options: ReadJsonlOptions = {}): Promise<EvalDataset> {
  const corpusDir = join(dir, DATASET_FILES.corpus);
  const tasks = await readTasks(join(dir, DATASET_FILES.tasks), options);
  const queries = await readQueries(join(dir, DATASET_FILES.queries), options);
  const metaPath = join(dir, DATASET_FILES.meta);
  const meta = existsSync(metaPath) ? await readMeta(metaPath) : null;
  const warnings: string[] = [];
  if (!existsSync(corpusDir)) warnings.push(`${corpusDir} does not exist`);
  else {
    for (const q of queries) {
      const missing = q.relevant.filter((p) => !existsSync(join(corpusDir, p)));
      if (missing.length) warnings.push(`query ${q.id}: relevant file(s) not in corpus: ${missing.join(', ')}`);
    }
  }
  const ids = new Set<string>();
  for (const q of queries) {
    if (ids.has(q.id)) warnings.push(`query id ${q.id} appears more than once`);
    ids.add(q.id);
  }
  return { dir, corpusDir, tasks, queries, meta, warnings };
}

/** Writes `tasks.jsonl`, `queries.jsonl` and `meta.json` into `dir` (the corpus is written separately). */
export async function writeDataset(dir: string, data: { tasks: readonly EvalTask[]; queries: readonly EvalQuery[]; meta: EvalDatasetMeta }): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeJsonl(join(dir, DATASET_FILES.tasks), data.tasks);
  await writeJsonl(join(dir, DATASET_FILES.queries), data.queries);
  await writeFile(join(dir, DATASET_FILES.meta), JSON.stringify(data.meta, null, 2) + '\n', 'utf8');
}
