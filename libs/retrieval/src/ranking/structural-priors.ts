import type { FusionStrategy } from '../fusion/fuse';
import type { SourceRanking } from '../fusion/fusion.types';
import { compileGlob } from '../ports/glob-matcher';

/** One row of the prior table: files matching `glob` get `weight`. */
export interface PriorRule {
  /** Glob (picomatch syntax) against the repo-relative path, case-insensitive, dotfiles included. */
  glob: string | readonly string[];
  weight: number;
  /** Shown in explanations ("test", "vendored", ...). */
  label: string;
}

/**
 * The default table, checked top to bottom (first match wins). Everything else is
 * ordinary source with weight 1. Roughly seed 001's core > ... > archive ladder applied
 * to code: source 1.0 > tests 0.8 > docs/examples 0.7 > archived/generated/vendored/fixtures 0.4.
 * The low-weight rows come first so that `vendor/x/test/a.js` counts as vendored.
 */
export const DEFAULT_PRIOR_RULES: readonly PriorRule[] = [
  { label: 'archived', weight: 0.4, glob: ['**/{archive,archived,attic,deprecated,legacy,obsolete}/**'] },
  { label: 'vendored', weight: 0.4, glob: ['**/{vendor,vendors,vendored,third_party,third-party,thirdparty,node_modules,bower_components,external}/**'] },
  {
    label: 'generated',
    weight: 0.4,
    glob: [
      '**/{dist,build,out,generated,__generated__,gen,coverage}/**',
      '**/*.{min.js,min.css,map,snap,lock,lockb}',
      '**/*.{generated,gen,pb,g}.*',
      '**/*_pb2.py',
      '**/{package-lock.json,yarn.lock,pnpm-lock.yaml,go.sum,cargo.lock,poetry.lock,composer.lock,gemfile.lock}',
    ],
  },
  { label: 'fixture', weight: 0.4, glob: ['**/{fixtures,fixture,__fixtures__,testdata,test-data,test_data,__snapshots__,__mocks__,mocks}/**'] },
  {
    label: 'test',
    weight: 0.8,
    glob: [
      '**/{test,tests,__tests__,spec,specs,e2e,testing,integration-tests}/**',
      '**/*.{test,spec,e2e-spec,e2e,bench}.*',
      '**/test_*.py',
      '**/*_test.{go,py,rs,rb,exs}',
      '**/*{Test,Tests,IT}.{java,kt,scala,cs}',
    ],
  },
  {
    label: 'docs',
    weight: 0.7,
    glob: ['**/{docs,doc,documentation,examples,example,samples,sample,demo,demos,benchmarks,bench}/**', '**/*.{md,mdx,rst,adoc,txt}'],
  },
];

/** Options for {@link StructuralPriors}. */
export interface StructuralPriorsOptions {
  /** Weight of a path no rule matches (default 1). */
  defaultWeight?: number;
}

/**
 * Path-based ranking priors: an ordered glob -> weight table, first matching rule wins.
 * Configure per workspace to express "core > system > concepts > meta > test > archive"
 * or any other ladder.
 *
 * @example
 * const priors = new StructuralPriors([
 *   { label: 'core', glob: 'docs/core/**', weight: 1.0 },
 *   { label: 'system', glob: 'docs/system/**', weight: 0.9 },
 *   { label: 'archive', glob: '**\/archive/**', weight: 0.4 },
 * ]);
 * priors.priorFor('docs/system/queues.md') // 0.9
 */
export class StructuralPriors {
  private readonly matchers: Array<{ rule: PriorRule; test: (path: string) => boolean }>;
  private readonly defaultWeight: number;
  /** Paths repeat across searches; matching ten globs per result adds up. Bounded. */
  private readonly cache = new Map<string, number>();

  constructor(readonly rules: readonly PriorRule[] = DEFAULT_PRIOR_RULES, options: StructuralPriorsOptions = {}) {
    this.defaultWeight = options.defaultWeight ?? 1;
    for (const rule of rules) {
      if (!Number.isFinite(rule.weight) || rule.weight < 0) throw new RangeError(`Prior rule "${rule.label}" needs a weight >= 0, got ${rule.weight}`);
    }
    this.matchers = rules.map((rule) => ({ rule, test: anyOf((typeof rule.glob === 'string' ? [rule.glob] : rule.glob).map((g) => compileGlob(g, { nocase: true }))) }));
  }

  /** The first rule matching `path`, if any. */
  ruleFor(path: string): PriorRule | undefined {
    const normalised = normalisePath(path);
    return this.matchers.find((m) => m.test(normalised))?.rule;
  }

  /** The prior weight of `path` (first matching rule, else the default weight). */
  priorFor(path: string): number {
    const cached = this.cache.get(path);
    if (cached !== undefined) return cached;
    const weight = this.ruleFor(path)?.weight ?? this.defaultWeight;
    if (this.cache.size >= 250_000) this.cache.clear();
    this.cache.set(path, weight);
    return weight;
  }
}

/** The default priors, shared. */
export const DEFAULT_STRUCTURAL_PRIORS = new StructuralPriors();

/**
 * The prior weight of a path under the default (or given) priors.
 *
 * @example
 * priorFor('src/session.ts') // 1
 * priorFor('test/session.spec.ts') // 0.8
 */
export function priorFor(path: string, priors: StructuralPriors = DEFAULT_STRUCTURAL_PRIORS): number {
  return priors.priorFor(path);
}

/** An item after {@link applyPriors}: its path, its new score, the prior applied and the score before. */
export type WithPrior<T> = T & { path: string; prior: number; scoreBeforePrior: number };

/**
 * Where a fusion strategy meets the priors. The rank-based fusions see each source's ranks only,
 * and their fused scores differ little between ranks (RRF: 1/61 at rank 1, 1/70 at rank 10), so a
 * 0.7 multiplied into them would move a file twenty places or more: their priors weigh each
 * source's own scores before fusing ({@link orderRankingsByPrior}). Weighted and vote scores
 * carry magnitudes, so the prior multiplies the fused score ({@link applyPriors}).
 */
export const PRIOR_BEFORE_FUSION: ReadonlySet<FusionStrategy> = new Set<FusionStrategy>(['rrf', 'cascade', 'concat']);

/** A score weighed by a prior: multiplied, or divided when below 0 so a prior under 1 always lowers it; a prior of 0 sends a negative score to the bottom. */
export function priorScore(score: number, prior: number): number {
  return score >= 0 ? score * prior : prior > 0 ? score / prior : Number.NEGATIVE_INFINITY;
}

/**
 * Multiplies each item's score by its path's prior and re-sorts (stable: equal scores keep
 * their input order). The path is `pathOf(item)`, by default `item.path` when present, else
 * `item.id`; it is kept on the result, so callers need not copy each item to add it first.
 * With `scale: false` the scores stay as they are and only the prior is recorded (for the
 * strategies that weighed it before fusing, {@link PRIOR_BEFORE_FUSION}).
 *
 * @example
 * applyPriors(fused, new StructuralPriors()) // vendored and generated files sink
 * applyPriors(fused, priors, (f) => pathOfId(f.id))
 */
export function applyPriors<T extends { score: number; id?: string; path?: string }>(
  items: readonly T[],
  priors: StructuralPriors = DEFAULT_STRUCTURAL_PRIORS,
  pathOf: (item: T) => string = (item) => item.path ?? item.id ?? '',
  { scale = true }: { scale?: boolean } = {},
): Array<WithPrior<T>> {
  const out: Array<WithPrior<T>> = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const path = pathOf(item);
    const prior = priors.priorFor(path);
    const score = scale ? priorScore(item.score, prior) : item.score;
    // Object.assign, not `{ ...item, path, ... }`: on Node 20 a spread followed by more keys
    // takes V8's slow path (~4 µs an item, measured), and this runs on every fused file of
    // every search.
    out[i] = Object.assign({}, item, { path, score, prior, scoreBeforePrior: item.score });
  }
  // Array.prototype.sort is stable: equal scores keep their input order.
  return scale ? out.sort((a, b) => b.score - a.score) : out;
}

/**
 * Each source's list re-ordered by its own score weighed by the path's prior, the raw scores
 * kept (explanations show what the source said; the new order is what rank fusion reads). A
 * 0.7 then means what it says: a document needs 1/0.7 of a code file's match in that source to
 * rank above it. Stable: equal weighed scores keep the source's order.
 *
 * @example
 * orderRankingsByPrior([{ source: 'file.keyword', items: [{ id: 'README.md', score: 10 }, { id: 'src/a.ts', score: 8 }] }], priors)
 * // [{ source: 'file.keyword', items: [{ id: 'src/a.ts', score: 8 }, { id: 'README.md', score: 10 }] }]  (10 × 0.7 = 7 < 8)
 */
export function orderRankingsByPrior(rankings: readonly SourceRanking[], priors: StructuralPriors = DEFAULT_STRUCTURAL_PRIORS, pathOf: (id: string) => string = (id) => id): SourceRanking[] {
  return rankings.map((ranking) => {
    const weighed = ranking.items.map((item, index) => ({ item, index, score: priorScore(item.score, priors.priorFor(pathOf(item.id))) }));
    weighed.sort((a, b) => b.score - a.score || a.index - b.index);
    return { source: ranking.source, items: weighed.map((w) => w.item) };
  });
}

function normalisePath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.?\/+/, '');
}

function anyOf(matchers: Array<(path: string) => boolean>): (path: string) => boolean {
  return (path) => matchers.some((m) => m(path));
}
