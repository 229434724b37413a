import { fileKind } from '../learning-to-rank/ranking-features';
import { extractQueryEvidence, type QueryMention } from './query-evidence';

/** A fenced code block, a Python traceback header, an exception line (`ValueError: …`, pytest's `E   …Error: …`) or a shell / REPL prompt. */
const REPORT_SIGNS = /```|Traceback \(most recent call last\)|^[ \t]*(?:E[ \t]+)?[\w.]*(?:Error|Exception|Warning)[ \t]*:|^[ \t]*(?:\$|>>>)[ \t]/m;

/**
 * Whether a query reads as a problem report — an issue with a reproduction, a traceback, an
 * error message or a console session — rather than a description of a change. Commit messages
 * almost never carry these (6 of 1,200 on the evaluation's commit datasets); issue reports
 * nearly always do (31 of 35 pytest issues). Pass the query's `mentions` when they are at hand.
 *
 * @example
 * isProblemReport('Crash on empty body\n\n```py\nclient.get("/")\n```') // true
 * isProblemReport('Fix crash on empty body') // false
 */
export function isProblemReport(query: string, mentions?: readonly QueryMention[]): boolean {
  return REPORT_SIGNS.test(query) || (mentions ?? extractQueryEvidence(query).mentions).some((m) => m.kind === 'frame');
}

/** How deep a problem report's first code file may sit to be lifted above the tests and docs ahead of it. */
export const REPORT_CODE_DEPTH = 5;

/**
 * Code first for a problem report: a report asks where the faulty behaviour lives, and the
 * learned ranker — trained on commits, which change tests and docs with the code — often puts
 * the test that repeats the report's words first. When the first result is a test or a document
 * and a code file is within the top `depth`, that code file moves to the top (with the first
 * result's score, so scores stay in order); nothing else moves, and the top `depth` keep the same
 * files, so tests and changelogs that changed with a fix stay in the top 5 / top 10.
 *
 * @example
 * liftCodeFirst([{ path: 'tests/test_app.py', score: 0.6 }, { path: 'docs/api.rst', score: 0.55 }, { path: 'src/app.py', score: 0.5 }])
 * // [{ path: 'src/app.py', score: 0.6, liftedFrom: 3 }, { path: 'tests/test_app.py', score: 0.6 }, { path: 'docs/api.rst', score: 0.55 }]
 */
export function liftCodeFirst<T extends { path: string; score: number }>(ranked: readonly T[], depth = REPORT_CODE_DEPTH): Array<T & { liftedFrom?: number }> {
  if (!ranked.length || fileKind(ranked[0].path) === 'source') return [...ranked];
  const j = ranked.slice(0, depth).findIndex((f) => fileKind(f.path) === 'source');
  if (j < 0) return [...ranked];
  return [{ ...ranked[j], score: Math.max(ranked[j].score, ranked[0].score), liftedFrom: j + 1 }, ...ranked.slice(0, j), ...ranked.slice(j + 1)];
}
