import type { RoutineHit } from '@sextant/contracts';

/** Same-template changes a query needs before its routine evidence counts. */
export const ROUTINE_MIN_FAMILY = 3;
/** The newest same-template changes a file's routine share is counted over. */
export const ROUTINE_WINDOW = 5;

const PULL_REQUEST_SUFFIX = /\s*\((?:#|gh-)\d+\)\s*$/;
const ISSUE_REF = /(?:#|\bgh-)\d+\b/g;
/** Version-like and numeric tokens: `0.27.0`, `v2.1`, `0.26.0.post1`, `3rc1`, `2024-05-01`. */
const NUMBER = /\bv?\d+(?:[.\-_]\w+)*\b/g;
/** Abbreviated or full commit ids (they hold a digit, unlike most words). */
const COMMIT_ID = /\b(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g;

/**
 * A change's subject with what differs between repetitions of the same routine change masked:
 * version numbers, issue and pull-request references, commit ids. Release commits ("Version
 * 0.27.0 (#2147)"), dependency bumps and changelog starts ("Start version 8.1.4") share one
 * template, so the files the latest changes of that template touched predict what the next
 * one touches; word-based search cannot see it, because each version number is its own token.
 * Empty when the subject holds neither a word nor a number (a bare version, `3.22.4`, is `<n>`).
 *
 * @example
 * changeTemplate('Version 0.27.0 (#2147)\n\n* Update release-notes.md') // 'version <n>'
 * changeTemplate('Bump actions/checkout from 3 to 4') // 'bump actions/checkout from <n> to <n>'
 * changeTemplate('Fix #123: cookies lost on redirect') // 'fix #<n>: cookies lost on redirect'
 */
export function changeTemplate(text: string): string {
  const subject = text.trimStart().split('\n', 1)[0].trim().toLowerCase();
  const masked = subject
    .replace(PULL_REQUEST_SUFFIX, '')
    .replace(ISSUE_REF, (ref) => `${ref.startsWith('#') ? '#' : 'gh-'}<n>`)
    .replace(COMMIT_ID, '<sha>')
    .replace(NUMBER, '<n>')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.:;,!-]+|[\s.:;,!-]+$/g, '');
  return /[a-z]/.test(masked.replace(/<n>|<sha>/g, '')) || masked.includes('<n>') ? masked : '';
}

/** Share of the newest same-template changes a file must have been part of to be kept in the top places. */
export const ROUTINE_MIN_SHARE = 0.6;
/** The places routine files are kept within (Recall@10's list), and how many of them it may take at most. */
export const ROUTINE_PLACES = 10;
export const ROUTINE_MAX_FILES = 3;

/** What the newest changes with a query's template touched ({@link ChangeHistory.routineChanges}). */
export interface RoutineChanges {
  template: string;
  /** How many same-template changes were read (the newest, at most {@link ROUTINE_WINDOW}). */
  window: number;
  /** Per file, how many of them changed it. */
  touched: ReadonlyMap<string, number>;
}

/** Why a file was moved into the top places: the routine it belongs to and its place before (the wire shape of its hit reason). */
export type RoutinePlacement = RoutineHit;

/**
 * The ranked list with the files that most of the newest same-template changes touched kept
 * within the top {@link ROUTINE_PLACES}: those ranked below (at most {@link ROUTINE_MAX_FILES}, most
 * often touched first) take the places of the lowest-ranked other files there, which move down
 * with the rest. Each place keeps its score, so scores still decrease. A release commit's
 * changelog is long and shares only the word "version" with the query, so neither the model nor
 * BM25 ranks it reliably; the last five releases all touched it (starlette: R@10 +0.044, no other
 * repository of twelve changed; docs/evaluation.md, stop 45).
 *
 * @example
 * const routine = { template: 'version <n>', window: 5, touched: new Map([['CHANGES.md', 5]]) };
 * keepRoutineInTop([{ path: 'a.py', score: 0.9 }, { path: 'CHANGES.md', score: 0.1 }], routine, 1)
 * // [{ path: 'CHANGES.md', score: 0.9, routine: { touched: 5, window: 5, template: 'version <n>', from: 2 } }, { path: 'a.py', score: 0.1 }]
 */
export function keepRoutineInTop<T extends { path: string; score: number }>(ranked: readonly T[], routine: RoutineChanges | null, places = ROUTINE_PLACES): Array<T & { routine?: RoutinePlacement }> {
  if (!routine || ranked.length <= places) return [...ranked];
  const touchedBy = (item: T) => routine.touched.get(item.path) ?? 0;
  const isRoutine = (item: T) => touchedBy(item) >= ROUTINE_MIN_SHARE * routine.window;
  const others = ranked.slice(0, places).filter((item) => !isRoutine(item)).length;
  const below: Array<{ at: number; touched: number }> = [];
  for (let at = places; at < ranked.length; at++) if (isRoutine(ranked[at])) below.push({ at, touched: touchedBy(ranked[at]) });
  const moved = below.sort((a, b) => b.touched - a.touched || a.at - b.at).slice(0, Math.min(ROUTINE_MAX_FILES, others));
  if (!moved.length) return [...ranked];
  // The lowest-ranked other files of the top places make room.
  const displaced = new Set<number>();
  for (let at = places - 1; displaced.size < moved.length; at--) if (!isRoutine(ranked[at])) displaced.add(at);
  const movedAt = new Set(moved.map((m) => m.at));
  const order: Array<T & { routine?: RoutinePlacement }> = [
    ...ranked.slice(0, places).filter((_, at) => !displaced.has(at)),
    ...moved.map(({ at, touched }) => ({ ...ranked[at], routine: { touched, window: routine.window, template: routine.template, from: at + 1 } })),
    ...ranked.filter((_, at) => displaced.has(at) || (at >= places && !movedAt.has(at))),
  ];
  return order.map((item, j) => (item === ranked[j] ? item : { ...item, score: ranked[j].score }));
}
