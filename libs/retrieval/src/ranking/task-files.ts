/** A task found by task search, with the files it touched. */
export interface ScoredTask {
  taskId: string;
  /** Similarity of the task to the query (higher is better). */
  score: number;
  files: readonly string[];
  /** ISO date; used for recency decay. */
  createdAt?: string | null;
  title?: string;
}

/** One task's part in a file's score. */
export interface ExplainingTask {
  taskId: string;
  title?: string;
  /** The task's own similarity score. */
  taskScore: number;
  /** 1-based rank of the task among the input tasks (by score). */
  taskRank: number;
  /** What this task added to the file's score, after damping, recency and the diminishing factor. */
  contribution: number;
}

/** A file suggested by similar tasks. */
export interface FileFromTasks {
  /** Same as `path`, for fusion's `{ id, score }` lists. */
  id: string;
  path: string;
  score: number;
  /** The tasks that count towards the score, strongest first (at most `topTasksPerFile`). */
  tasks: ExplainingTask[];
  /** All tasks among the input that touched this file. */
  taskCount: number;
}

/** Options for {@link filesFromTasks}. */
export interface FilesFromTasksOptions {
  /** How many of a file's tasks count towards its score (default 3). */
  topTasksPerFile?: number;
  /** Weight of the i-th counted task is `nextTaskFactor^(i-1)` (default 0.5: 1, 0.5, 0.25). */
  nextTaskFactor?: number;
  /** Half-life of the recency decay in days; omitted = no decay. */
  recencyHalfLifeDays?: number;
  /** "Now" for the recency decay (default: the current time). */
  now?: Date;
  /** Tasks touching more files than this are skipped as too broad (default: no limit). */
  maxFilesPerTask?: number;
}

/**
 * Expands similar tasks into the files they touched. Each (task, file) pair gives
 *
 *     c = max(taskScore, 0) × decay × 1 / log2(1 + nFiles)
 *
 * where `nFiles` is how many files the task touched (a one-file task keeps its full
 * score; a 15-file task gives each file a quarter) and `decay = 0.5^(ageDays / halfLife)`
 * when `recencyHalfLifeDays` is set (tasks without a valid date are not decayed). A file
 * then scores its best c plus a diminishing sum of the next ones:
 *
 *     score = c1 + f·c2 + f²·c3 + ...   (first `topTasksPerFile` terms, f = nextTaskFactor)
 *
 * so a file many similar tasks touched beats one touched by a single equally similar task,
 * but never by more than a factor 1/(1-f). Negative task scores (dense cosine) count as 0:
 * dissimilar tasks are no evidence; their files still appear, last. Ties: best task rank,
 * then path.
 *
 * @example
 * filesFromTasks([
 *   { taskId: 't1', score: 0.9, files: ['lib/session.js'], createdAt: '2024-01-01T00:00:00Z' },
 *   { taskId: 't2', score: 0.6, files: ['lib/session.js', 'test/session.js'] },
 * ], { recencyHalfLifeDays: 365 })[0].path // 'lib/session.js'
 */
export function filesFromTasks(tasks: readonly ScoredTask[], options: FilesFromTasksOptions = {}): FileFromTasks[] {
  const { topTasksPerFile = 3, nextTaskFactor = 0.5, recencyHalfLifeDays, now = new Date(), maxFilesPerTask = Number.POSITIVE_INFINITY } = options;
  if (topTasksPerFile < 1) throw new RangeError(`topTasksPerFile must be >= 1, got ${topTasksPerFile}`);
  if (recencyHalfLifeDays !== undefined && !(recencyHalfLifeDays > 0)) throw new RangeError(`recencyHalfLifeDays must be > 0, got ${recencyHalfLifeDays}`);
  const ranked = tasks
    .map((task, index) => ({ task, index }))
    .filter(({ task }) => Number.isFinite(task.score))
    .sort((a, b) => b.task.score - a.task.score || a.index - b.index);

  const byPath = new Map<string, ExplainingTask[]>();
  ranked.forEach(({ task }, i) => {
    const files = [...new Set(task.files)].filter(Boolean);
    if (files.length === 0 || files.length > maxFilesPerTask) return;
    const damping = 1 / Math.log2(1 + files.length);
    const contribution = Math.max(task.score, 0) * recencyDecay(task.createdAt, now, recencyHalfLifeDays) * damping;
    for (const path of files) {
      let list = byPath.get(path);
      if (!list) byPath.set(path, (list = []));
      list.push({ taskId: task.taskId, ...(task.title !== undefined ? { title: task.title } : {}), taskScore: task.score, taskRank: i + 1, contribution });
    }
  });

  const out: FileFromTasks[] = [];
  for (const [path, list] of byPath) {
    const counted = [...list].sort((a, b) => b.contribution - a.contribution || a.taskRank - b.taskRank).slice(0, topTasksPerFile);
    const tasksOut = counted.map((t, i) => ({ ...t, contribution: t.contribution * nextTaskFactor ** i }));
    out.push({ id: path, path, score: tasksOut.reduce((s, t) => s + t.contribution, 0), tasks: tasksOut, taskCount: list.length });
  }
  const bestRank = (f: FileFromTasks) => Math.min(...f.tasks.map((t) => t.taskRank));
  return out.sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function recencyDecay(createdAt: string | null | undefined, now: Date, halfLifeDays: number | undefined): number {
  if (halfLifeDays === undefined || !createdAt) return 1;
  const time = Date.parse(createdAt);
  if (Number.isNaN(time)) return 1;
  const ageDays = Math.max(0, (now.getTime() - time) / 86_400_000);
  return 0.5 ** (ageDays / halfLifeDays);
}
