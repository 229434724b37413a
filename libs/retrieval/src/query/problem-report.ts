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

/** What a test or document's score is multiplied by when the query is a problem report. */
export const REPORT_NON_CODE_FACTOR = 0.5;

/**
 * Code before its tests and documents for a problem report: a report asks where the faulty
 * behaviour lives, and the learned ranker — trained on commits, which change tests and docs
 * with the code — cannot tell. Tests and docs keep their place among themselves; their scores
 * are multiplied by `factor` and the list is re-sorted (stable), so a test far ahead of any
 * code still leads.
 *
 * @example
 * demoteNonCode([{ path: 'tests/test_app.py', score: 0.6 }, { path: 'src/app.py', score: 0.5 }], 0.5)
 * // [{ path: 'src/app.py', score: 0.5 }, { path: 'tests/test_app.py', score: 0.3, nonCodeFactor: 0.5 }]
 */
export function demoteNonCode<T extends { path: string; score: number }>(ranked: readonly T[], factor = REPORT_NON_CODE_FACTOR): Array<T & { nonCodeFactor?: number }> {
  return ranked
    .map((item, order) => (fileKind(item.path) === 'source' ? { item: item as T & { nonCodeFactor?: number }, order } : { item: { ...item, score: item.score * factor, nonCodeFactor: factor }, order }))
    .sort((a, b) => b.item.score - a.item.score || a.order - b.order)
    .map((x) => x.item);
}
