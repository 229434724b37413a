import { SearchRequestSchema } from '@sextant/contracts';
import type { EvalDataset } from '@sextant/eval';
import { DEFAULT_FUSION_WEIGHTS, normaliseWeights, type QueryClass, type SourceWeights } from '@sextant/retrieval';
import type { AuthContext } from '../../auth/auth-context';
import { EvaluationService } from '../../evaluation/evaluation.service';
import { FusionWeightsService } from '../../fusion/fusion-weights.service';
import { SearchLogService } from '../../fusion/search-log.service';
import { SearchService } from '../../fusion/search.service';
import { FeedbackService, toRankings } from '../feedback.service';
import { SOURCES } from '../feedback.mapper';
import { bestFixedWeights, simplexGrid } from './grid-search';
import { meanScores, rankOffline, scoreQueries, SIM_METRICS, type PooledQuery, type SimMetric, type SimScores, type WeightsByClass } from './offline-ranker';

const CLASSES: readonly QueryClass[] = ['specific', 'conceptual'];
/** Simulated time between two training searches (raters take turns). */
const QUERY_SPACING_MS = 10 * 60 * 1000;

/** Options of {@link FeedbackSimulation.run}. */
export interface FeedbackSimulationOptions {
  dataset: EvalDataset;
  /** Simulated raters taking turns (each has its own per-principal cap). */
  raters?: number;
  /** Rating-noise levels to run (probability a rating is flipped). */
  noiseLevels?: readonly number[];
  /** Results rated per training search. */
  rateTop?: number;
  /** Share of the (non-empty) queries used for training. */
  trainFraction?: number;
  /** Normalised weight the deliberately bad start puts on one source. */
  badShare?: number;
  /** Simplex grid step of the fixed-weights grid search. */
  gridStep?: number;
  /** Metric the grid search maximises and the recovery is measured on. */
  metric?: SimMetric;
  /** Passes over the training queries. */
  epochs?: number;
  seed?: number;
  onProgress?: (line: string) => void;
}

export interface TrajectoryPoint {
  /** Ratings given so far in this scenario. */
  rating: number;
  queryClass: QueryClass;
  normalised: Record<string, number>;
}

export interface ScenarioResult {
  name: 'default' | 'bad';
  noise: number;
  initial: WeightsByClass;
  learned: WeightsByClass;
  heldout: { initial: SimScores; learned: SimScores };
  /** Paired difference learned - initial on the held-out queries, for `metric`. */
  difference: { mean: number; se: number; ci95: [number, number]; withinNoise: boolean };
  ratings: { total: number; updated: number; capped: number; noFlips: number; flipped: number };
  trajectory: TrajectoryPoint[];
  /** Held-out `metric` during training (after n training searches). */
  checkpoints: Array<{ searches: number; ratings: number; score: number }>;
}

export interface FeedbackSimulationResult {
  split: { train: number; heldout: number; trainByClass: Record<QueryClass, number>; heldoutByClass: Record<QueryClass, number> };
  settings: { raters: number; noiseLevels: number[]; rateTop: number; badShare: number; gridStep: number; metric: SimMetric; epochs: number; seed: number; learner: FeedbackService['params'] };
  /** Fraction of held-out queries whose offline top 10 (re-fused from the pool) equals the live search's top 10. */
  offlineAgreement: number;
  bad: { source: Record<QueryClass, string>; weights: WeightsByClass; trainScore: Record<QueryClass, number> };
  grid: {
    points: number;
    /** Best fixed weights selected on the training half, scored on the held-out half. */
    trainSelected: { weights: WeightsByClass; heldout: SimScores };
    /** Best fixed weights selected on the held-out half itself (an optimistic ceiling). */
    oracle: { weights: WeightsByClass; heldout: SimScores };
  };
  scenarios: ScenarioResult[];
  /** For each bad-start scenario: share of the gap to the best fixed weights that learning recovered, on `metric`. */
  recovery: Array<{ noise: number; initial: number; learned: number; best: number; oracle: number; fraction: number; oracleFraction: number }>;
  /** For each noisy scenario: cosine between its weight change and the noise-free run's, and its held-out gain. */
  noiseDirection: Array<{ name: string; noise: number; cosine: number; gain: number; noiseFreeGain: number }>;
}

/**
 * `sextant eval simulate-feedback` as a use case: index a dataset into a fresh workspace,
 * split its queries into training and held-out halves, and for each scenario (default
 * weights; deliberately bad weights) and noise level let simulated raters rate the top
 * results of every training search from the ground truth (flipping a share of them) through
 * the real FeedbackService, so the real learner updates the workspace's weights. Held-out
 * queries are scored offline by re-fusing their logged pools with the initial and the
 * learned weights (checked against live searches), next to the best fixed weights a grid
 * search finds.
 */
export class FeedbackSimulation {
  constructor(
    private readonly evaluation: EvaluationService,
    private readonly search: SearchService,
    private readonly logs: SearchLogService,
    private readonly weights: FusionWeightsService,
    private readonly feedback: FeedbackService,
  ) {}

  async run(options: FeedbackSimulationOptions): Promise<FeedbackSimulationResult> {
    const { dataset, raters = 3, noiseLevels = [0, 0.2], rateTop = 10, trainFraction = 0.5, badShare = 0.9, gridStep = 0.1, metric = 'ndcg10', epochs = 1, seed = 1, onProgress = () => undefined } = options;
    const indexed = await this.evaluation.run({ dataset, strategies: [], baseline: false });
    const ws = indexed.workspaceId;
    onProgress(`Indexed ${indexed.index.counts.indexed} files, imported ${indexed.tasks.imported} tasks`);

    const queries = shuffle(
      dataset.queries.filter((q) => q.relevant.length > 0),
      mulberry32(seed),
    );
    const cut = Math.round(queries.length * trainFraction);
    const train = queries.slice(0, cut);
    const heldoutRaw = queries.slice(cut);

    // One logged search per query gives its pool; fusion with any weights is then replayed offline.
    const pooled = new Map<string, PooledQuery>();
    let agree = 0;
    const admin = this.auth(ws, 'simulation');
    for (const [i, q] of queries.entries()) {
      const res = await this.search.search(ws, SearchRequestSchema.parse({ query: q.query.slice(0, 2000), top_k: 50, strategy: 'weighted' }), { cache: false, principal: admin.principal });
      const rankings = toRankings(await this.logs.pool(ws, res.search_id));
      const pq: PooledQuery = { id: q.id, query: q.query, queryClass: res.query_class, relevant: q.relevant, rankings };
      pooled.set(q.id, pq);
      if (i >= cut) {
        const live = [...new Set(res.results.map((r) => r.path))].slice(0, 10);
        const offline = rankOffline(rankings, res.weights as SourceWeights, this.search.priors).slice(0, 10);
        if (live.join('\n') === offline.join('\n')) agree++;
      }
      if ((i + 1) % 50 === 0) onProgress(`Pooled ${i + 1}/${queries.length} queries`);
    }
    const trainQ = train.map((q) => pooled.get(q.id)!);
    const heldout = heldoutRaw.map((q) => pooled.get(q.id)!);
    const countBy = (list: PooledQuery[]) => ({ specific: list.filter((q) => q.queryClass === 'specific').length, conceptual: list.filter((q) => q.queryClass === 'conceptual').length });

    // Grid search over fixed weights, per class (classes never share a query, so they are independent).
    const grid = simplexGrid(SOURCES, gridStep);
    onProgress(`Grid search: ${grid.length} weight vectors per class`);
    const trainBest = {} as WeightsByClass;
    const oracleBest = {} as WeightsByClass;
    for (const qc of CLASSES) {
      trainBest[qc] = bestFixedWeights(trainQ, qc, grid, metric, this.search.priors).weights;
      oracleBest[qc] = bestFixedWeights(heldout, qc, grid, metric, this.search.priors).weights;
    }

    // The deliberately bad start: of the five "90 % on one source" settings, the worst on the training half.
    const badWeights = {} as WeightsByClass;
    const badSource = {} as Record<QueryClass, string>;
    const badTrainScore = {} as Record<QueryClass, number>;
    for (const qc of CLASSES) {
      let worst = { source: SOURCES[0] as string, score: Infinity, weights: {} as SourceWeights };
      for (const s of SOURCES) {
        const w = Object.fromEntries(SOURCES.map((x) => [x, x === s ? badShare : (1 - badShare) / (SOURCES.length - 1)])) as SourceWeights;
        const mine = trainQ.filter((q) => q.queryClass === qc);
        const score = meanScores(scoreQueries(mine, { specific: w, conceptual: w }, this.search.priors))[metric];
        if (score < worst.score) worst = { source: s, score, weights: w };
      }
      badWeights[qc] = worst.weights;
      badSource[qc] = worst.source;
      badTrainScore[qc] = worst.score;
    }

    const defaults: WeightsByClass = { specific: { ...DEFAULT_FUSION_WEIGHTS.specific }, conceptual: { ...DEFAULT_FUSION_WEIGHTS.conceptual } };
    const scenarios: ScenarioResult[] = [];
    for (const noise of noiseLevels) {
      for (const [name, initial] of [['default', defaults], ['bad', badWeights]] as const) {
        onProgress(`Training: ${name} start, noise ${noise}`);
        scenarios.push(await this.trainScenario({ ws, name, initial, noise, train, heldout, raters, rateTop, epochs, seed, metric }));
      }
    }

    const gridHeldout = meanScores(scoreQueries(heldout, trainBest, this.search.priors));
    const oracleHeldout = meanScores(scoreQueries(heldout, oracleBest, this.search.priors));
    const recovery = scenarios
      .filter((s) => s.name === 'bad')
      .map((s) => {
        const initial = s.heldout.initial[metric];
        const learned = s.heldout.learned[metric];
        const best = gridHeldout[metric];
        const oracle = oracleHeldout[metric];
        return { noise: s.noise, initial, learned, best, oracle, fraction: best > initial ? (learned - initial) / (best - initial) : 1, oracleFraction: oracle > initial ? (learned - initial) / (oracle - initial) : 1 };
      });
    const noiseDirection = scenarios
      .filter((s) => s.noise > 0)
      .map((s) => {
        const clean = scenarios.find((c) => c.name === s.name && c.noise === 0);
        return { name: s.name, noise: s.noise, cosine: clean ? weightChangeCosine(s, clean) : NaN, gain: s.heldout.learned[metric] - s.heldout.initial[metric], noiseFreeGain: clean ? clean.heldout.learned[metric] - clean.heldout.initial[metric] : NaN };
      });

    return {
      split: { train: trainQ.length, heldout: heldout.length, trainByClass: countBy(trainQ), heldoutByClass: countBy(heldout) },
      settings: { raters, noiseLevels: [...noiseLevels], rateTop, badShare, gridStep, metric, epochs, seed, learner: { ...this.feedback.params } },
      offlineAgreement: heldout.length ? agree / heldout.length : 1,
      bad: { source: badSource, weights: badWeights, trainScore: badTrainScore },
      grid: { points: grid.length, trainSelected: { weights: trainBest, heldout: gridHeldout }, oracle: { weights: oracleBest, heldout: oracleHeldout } },
      scenarios,
      recovery,
      noiseDirection,
    };
  }

  private async trainScenario(a: {
    ws: string;
    name: 'default' | 'bad';
    initial: WeightsByClass;
    noise: number;
    train: EvalDataset['queries'];
    heldout: PooledQuery[];
    raters: number;
    rateTop: number;
    epochs: number;
    seed: number;
    metric: SimMetric;
  }): Promise<ScenarioResult> {
    for (const qc of CLASSES) await this.weights.append(a.ws, qc, a.initial[qc], 'simulation', { principal: 'simulation' });
    const rng = mulberry32(a.seed * 7919 + Math.round(a.noise * 1000) + (a.name === 'bad' ? 17 : 0));
    const tag = `${a.name}-${a.noise}`;
    const raters = Array.from({ length: a.raters }, (_, i) => this.auth(a.ws, `sim:${tag}:rater-${i + 1}`));
    const trajectory: TrajectoryPoint[] = CLASSES.map((qc) => ({ rating: 0, queryClass: qc, normalised: normaliseWeights(a.initial[qc], SOURCES) }));
    const checkpoints: ScenarioResult['checkpoints'] = [];
    const counts = { total: 0, updated: 0, capped: 0, noFlips: 0, flipped: 0 };
    let clock = Date.now();
    let searches = 0;
    const total = a.train.length * a.epochs;
    const every = Math.max(1, Math.floor(total / 20));
    const checkpoint = async () => checkpoints.push({ searches, ratings: counts.total, score: meanScores(scoreQueries(a.heldout, await this.currentWeights(a.ws), this.search.priors))[a.metric] });
    await checkpoint();

    for (let epoch = 0; epoch < a.epochs; epoch++) {
      for (const q of a.train) {
        const rater = raters[searches % raters.length];
        clock += QUERY_SPACING_MS;
        const res = await this.search.search(a.ws, SearchRequestSchema.parse({ query: q.query.slice(0, 2000), top_k: a.rateTop, strategy: 'weighted' }), { cache: false, principal: rater.principal });
        const relevant = new Set(q.relevant);
        for (const r of res.results.slice(0, a.rateTop)) {
          const truth = relevant.has(r.path) ? 1 : -1;
          const flip = rng() < a.noise;
          if (flip) counts.flipped++;
          else counts.noFlips++;
          const out = await this.feedback.rate(rater, { search_id: res.search_id, item_id: r.id, rating: flip ? -truth : truth }, { at: new Date(clock) });
          counts.total++;
          if (out.learning.outcome === 'updated') {
            counts.updated++;
            trajectory.push({ rating: counts.total, queryClass: out.query_class, normalised: normaliseWeights(out.learning.weights, SOURCES) });
          } else if (out.learning.outcome === 'cap_reached') counts.capped++;
        }
        searches++;
        if (searches % every === 0 || searches === total) await checkpoint();
      }
    }

    const learned = await this.currentWeights(a.ws);
    const before = scoreQueries(a.heldout, a.initial, this.search.priors);
    const after = scoreQueries(a.heldout, learned, this.search.priors);
    return {
      name: a.name,
      noise: a.noise,
      initial: a.initial,
      learned,
      heldout: { initial: meanScores(before), learned: meanScores(after) },
      difference: pairedDifference(
        before.map((s) => s[a.metric]),
        after.map((s) => s[a.metric]),
      ),
      ratings: counts,
      trajectory,
      checkpoints,
    };
  }

  private async currentWeights(ws: string): Promise<WeightsByClass> {
    return { specific: { ...(await this.weights.current(ws, 'specific')).weights }, conceptual: { ...(await this.weights.current(ws, 'conceptual')).weights } };
  }

  private auth(workspaceId: string, principal: string): AuthContext {
    return { workspaceId, role: 'member', principal };
  }
}

/** Mean paired difference with its standard error; "within noise" = not below -1.96 SE. */
export function pairedDifference(before: readonly number[], after: readonly number[]): ScenarioResult['difference'] {
  const d = after.map((v, i) => v - before[i]);
  const n = d.length;
  const mean = n ? d.reduce((s, v) => s + v, 0) / n : 0;
  const variance = n > 1 ? d.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  const se = n ? Math.sqrt(variance / n) : 0;
  return { mean, se, ci95: [mean - 1.96 * se, mean + 1.96 * se], withinNoise: mean >= -1.96 * se };
}

/** Cosine between two scenarios' changes of the normalised weights (both classes, all sources). */
function weightChangeCosine(a: ScenarioResult, b: ScenarioResult): number {
  const delta = (s: ScenarioResult) => CLASSES.flatMap((qc) => SOURCES.map((src) => normaliseWeights(s.learned[qc], SOURCES)[src] - normaliseWeights(s.initial[qc], SOURCES)[src]));
  const x = delta(a);
  const y = delta(b);
  const dot = x.reduce((s, v, i) => s + v * y[i], 0);
  const norm = Math.sqrt(x.reduce((s, v) => s + v * v, 0)) * Math.sqrt(y.reduce((s, v) => s + v * v, 0));
  return norm > 0 ? dot / norm : 0;
}

/** Small seeded PRNG (mulberry32): the split and the noise are reproducible with --seed. */
export function mulberry32(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(items: readonly T[], rng: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export { SIM_METRICS };
