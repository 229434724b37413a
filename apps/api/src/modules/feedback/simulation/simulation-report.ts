import type { QueryClass } from '@sextant/retrieval';
import { SOURCES } from '../feedback.mapper';
import type { FeedbackSimulationResult, ScenarioResult } from './feedback-simulation';
import { normaliseWeights } from '@sextant/retrieval';
import { SIM_METRICS, type SimScores, type WeightsByClass } from './offline-ranker';

const LABEL: Record<string, string> = { r10: 'R@10', mrr: 'MRR', ndcg10: 'NDCG@10' };
const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd'];
const CLASSES: readonly QueryClass[] = ['specific', 'conceptual'];

const f3 = (v: number) => (Number.isFinite(v) ? v.toFixed(3) : String(v));
const pct = (v: number) => (Number.isFinite(v) ? `${(v * 100).toFixed(0)} %` : String(v));
const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(3)}`;

function weightsCell(w: WeightsByClass, qc: QueryClass): string {
  const n = normaliseWeights(w[qc], SOURCES);
  return SOURCES.map((s) => `${s.replace('file.', 'f.').replace('task.', 't.')} ${n[s].toFixed(2)}`).join(', ');
}

/** The Markdown report of a simulation (tables, verdicts) referring to its SVG chart. */
export function renderSimulationMarkdown(r: FeedbackSimulationResult, options: { title: string; chartFile?: string }): string {
  const m = r.settings.metric;
  const lines: string[] = [`# ${options.title}`, ''];
  lines.push(
    `Queries: ${r.split.train} training (${r.split.trainByClass.specific} specific / ${r.split.trainByClass.conceptual} conceptual), ${r.split.heldout} held-out (${r.split.heldoutByClass.specific} / ${r.split.heldoutByClass.conceptual}); seed ${r.settings.seed}.`,
    `Raters: ${r.settings.raters} simulated, each rating the top ${r.settings.rateTop} results of its training searches from the ground truth (+1 relevant, -1 not), a share of ratings flipped (noise); ${r.settings.epochs} pass(es). Every rating goes through FeedbackService (credit from the pool, per-rater cap, versioned weights).`,
    `Learner: pairwise credit, η = ${r.settings.learner.learningRate} with step schedule n₀ = ${r.settings.learner.annealRatings}, T = ${r.settings.learner.temperature}, page K = ${r.settings.learner.pageSize}, floor φ = ${r.settings.learner.floor}, decay λ = ${r.settings.learner.decay}, cap ${r.settings.learner.capPerWindow} rating units per ${r.settings.learner.windowMs / 60000} min per rater.`,
    `Held-out scoring re-fuses each query's logged pool offline (weighted fusion + structural priors); it matched the live search's top 10 on ${pct(r.offlineAgreement)} of held-out queries.`,
    `Grid search: ${r.grid.points} weight vectors per class (simplex step ${r.settings.gridStep}), maximising ${LABEL[m]}; "best fixed" = selected on the training half, scored on the held-out half ("oracle" = selected on the held-out half itself, an optimistic ceiling).`,
    '',
    '## Held-out results',
    '',
    `| start | noise | weights | ${SIM_METRICS.map((k) => LABEL[k]).join(' | ')} | Δ${LABEL[m]} (95 % CI) | within noise |`,
    `|---|---:|---|${SIM_METRICS.map(() => '---:').join('|')}|---|---|`,
  );
  const row = (start: string, noise: string, which: string, s: SimScores, extra = ['', '']) => `| ${start} | ${noise} | ${which} | ${SIM_METRICS.map((k) => f3(s[k])).join(' | ')} | ${extra[0]} | ${extra[1]} |`;
  for (const s of r.scenarios) {
    lines.push(row(s.name, String(s.noise), 'initial', s.heldout.initial));
    const d = s.difference;
    lines.push(row(s.name, String(s.noise), '**learned**', s.heldout.learned, [`${signed(d.mean)} (${signed(d.ci95[0])} … ${signed(d.ci95[1])})`, d.withinNoise ? 'yes' : '**no**']));
  }
  lines.push(row('—', '—', 'best fixed (grid, train-selected)', r.grid.trainSelected.heldout), row('—', '—', 'oracle (grid, held-out-selected)', r.grid.oracle.heldout), '');
  lines.push(
    `"Within noise": the paired difference learned − initial over held-out queries is not below −1.96 standard errors (no significant loss).`,
    '',
    '## Recovery from deliberately bad weights',
    '',
    `Bad start per class: ${Math.round(r.settings.badShare * 100)} % on the source whose 90 % setting is worst on the training half — specific: \`${r.bad.source.specific}\`, conceptual: \`${r.bad.source.conceptual}\`.`,
    '',
    `| noise | ${LABEL[m]} bad start | learned | best fixed | recovered of gap | oracle | recovered of oracle gap | ≥ 80 % |`,
    '|---:|---:|---:|---:|---:|---:|---:|---|',
    ...r.recovery.map((x) => `| ${x.noise} | ${f3(x.initial)} | ${f3(x.learned)} | ${f3(x.best)} | ${pct(x.fraction)} | ${f3(x.oracle)} | ${pct(x.oracleFraction)} | ${x.fraction >= 0.8 ? 'yes' : '**no**'} |`),
    '',
    'Recovered = (learned − bad start) ÷ (best fixed − bad start), on held-out queries.',
    '',
  );
  if (r.noiseDirection.length) {
    lines.push('## Noise', '', '| start | noise | cosine(Δweights, noise-free Δweights) | held-out gain | noise-free gain |', '|---|---:|---:|---:|---:|');
    for (const n of r.noiseDirection) lines.push(`| ${n.name} | ${n.noise} | ${f3(n.cosine)} | ${signed(n.gain)} | ${signed(n.noiseFreeGain)} |`);
    lines.push('', 'The weights "move the right way" under noise when the change points the same way as without noise (cosine > 0) and the held-out gain keeps its sign.', '');
  }
  lines.push('## Weights', '', '| start | noise | class | initial (normalised) | learned (normalised) |', '|---|---:|---|---|---|');
  for (const s of r.scenarios) for (const qc of CLASSES) lines.push(`| ${s.name} | ${s.noise} | ${qc} | ${weightsCell(s.initial, qc)} | ${weightsCell(s.learned, qc)} |`);
  for (const qc of CLASSES) lines.push(`| best fixed | — | ${qc} | | ${weightsCell(r.grid.trainSelected.weights, qc)} |`);
  lines.push('', '| start | noise | ratings | updates | capped | flipped by noise |', '|---|---:|---:|---:|---:|---:|');
  for (const s of r.scenarios) lines.push(`| ${s.name} | ${s.noise} | ${s.ratings.total} | ${s.ratings.updated} | ${s.ratings.capped} | ${s.ratings.flipped} |`);
  if (options.chartFile) lines.push('', `![Weight trajectories](${options.chartFile})`, '');
  return lines.join('\n') + '\n';
}

/** One SVG: a panel per scenario and class with each source's normalised weight over the ratings given. */
export function renderTrajectorySvg(r: FeedbackSimulationResult): string {
  const panelW = 320;
  const panelH = 170;
  const pad = { l: 40, r: 10, t: 28, b: 26 };
  const cols = CLASSES.length;
  const rows = r.scenarios.length;
  const width = cols * (panelW + pad.l + pad.r) + 10;
  const height = rows * (panelH + pad.t + pad.b) + 40;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...SOURCES.map((s, i) => `<g><rect x="${10 + i * 120}" y="8" width="10" height="10" fill="${COLORS[i]}"/><text x="${24 + i * 120}" y="17">${s}</text></g>`),
  ];
  r.scenarios.forEach((s: ScenarioResult, row) => {
    CLASSES.forEach((qc, col) => {
      const x0 = col * (panelW + pad.l + pad.r) + pad.l;
      const y0 = 40 + row * (panelH + pad.t + pad.b) + pad.t;
      const points = s.trajectory.filter((p) => p.queryClass === qc);
      const maxX = Math.max(1, s.ratings.total);
      parts.push(`<text x="${x0}" y="${y0 - 8}" font-weight="bold">${s.name} start, noise ${s.noise} — ${qc}</text>`);
      parts.push(`<rect x="${x0}" y="${y0}" width="${panelW}" height="${panelH}" fill="none" stroke="#999"/>`);
      for (const v of [0, 0.5, 1]) parts.push(`<text x="${x0 - 6}" y="${y0 + panelH - v * panelH + 4}" text-anchor="end">${v}</text>`);
      parts.push(`<text x="${x0 + panelW}" y="${y0 + panelH + 16}" text-anchor="end">${maxX} ratings</text>`);
      SOURCES.forEach((src, i) => {
        // Step line: a class's weights only change with that class's ratings.
        const pts = points.map((p) => [x0 + (p.rating / maxX) * panelW, y0 + panelH - (p.normalised[src] ?? 0) * panelH] as const);
        if (pts.length) pts.push([x0 + panelW, pts[pts.length - 1][1]]);
        parts.push(`<polyline fill="none" stroke="${COLORS[i]}" stroke-width="1.5" points="${pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')}"/>`);
      });
    });
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/**
 * One repository's block of the results section of docs/feedback.md: the held-out table,
 * the recovery table, the noise table and the learned weights.
 */
export function renderDocSection(r: FeedbackSimulationResult, options: { heading: string }): string {
  const m = r.settings.metric;
  const lines: string[] = [
    `#### ${options.heading}`,
    '',
    `${r.split.train} training / ${r.split.heldout} held-out queries; offline re-fusion matched the live top 10 on ${pct(r.offlineAgreement)} of held-out queries; bad start = ${Math.round(r.settings.badShare * 100)} % on \`${r.bad.source.specific}\` (specific) / \`${r.bad.source.conceptual}\` (conceptual).`,
    '',
    `| start | noise | weights | ${SIM_METRICS.map((k) => LABEL[k]).join(' | ')} | Δ${LABEL[m]} (95 % CI) | within noise |`,
    `|---|---:|---|${SIM_METRICS.map(() => '---:').join('|')}|---|---|`,
  ];
  const row = (start: string, noise: string, which: string, s: SimScores, extra = ['', '']) => `| ${start} | ${noise} | ${which} | ${SIM_METRICS.map((k) => f3(s[k])).join(' | ')} | ${extra[0]} | ${extra[1]} |`;
  for (const s of r.scenarios) {
    const d = s.difference;
    lines.push(row(s.name, String(s.noise), 'initial', s.heldout.initial), row(s.name, String(s.noise), '**learned**', s.heldout.learned, [`${signed(d.mean)} (${signed(d.ci95[0])} … ${signed(d.ci95[1])})`, d.withinNoise ? 'yes' : '**no**']));
  }
  lines.push(row('—', '—', 'best fixed (grid, train-selected)', r.grid.trainSelected.heldout), row('—', '—', 'oracle (grid, held-out-selected)', r.grid.oracle.heldout), '');
  lines.push(`| noise | ${LABEL[m]} bad start | learned | best fixed | recovered of gap | oracle | recovered of oracle gap | ≥ 80 % |`, '|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const x of r.recovery) lines.push(`| ${x.noise} | ${f3(x.initial)} | ${f3(x.learned)} | ${f3(x.best)} | ${pct(x.fraction)} | ${f3(x.oracle)} | ${pct(x.oracleFraction)} | ${x.fraction >= 0.8 ? 'yes' : '**no**'} |`);
  if (r.noiseDirection.length) {
    lines.push('', '| start | noise | cosine(Δweights, noise-free Δweights) | held-out gain | noise-free gain |', '|---|---:|---:|---:|---:|');
    for (const n of r.noiseDirection) lines.push(`| ${n.name} | ${n.noise} | ${f3(n.cosine)} | ${signed(n.gain)} | ${signed(n.noiseFreeGain)} |`);
  }
  lines.push('', '| start | noise | class | learned (normalised) |', '|---|---:|---|---|');
  for (const s of r.scenarios) for (const qc of CLASSES) lines.push(`| ${s.name} | ${s.noise} | ${qc} | ${weightsCell(s.learned, qc)} |`);
  for (const qc of CLASSES) lines.push(`| best fixed | — | ${qc} | ${weightsCell(r.grid.trainSelected.weights, qc)} |`);
  return lines.join('\n') + '\n';
}

/** One row of the summary table against the quality bar in docs/feedback.md (first noisy level). */
export function renderSummaryRow(r: FeedbackSimulationResult, label: string): string {
  const noisy = r.settings.noiseLevels.find((n) => n > 0);
  const def = (noise: number | undefined) => r.scenarios.find((s) => s.name === 'default' && s.noise === noise);
  const cell = (s: ScenarioResult | undefined) => (s ? `${signed(s.difference.mean)} (${s.difference.withinNoise ? 'yes' : 'no'})` : '—');
  const rec = (noise: number | undefined) => {
    const x = r.recovery.find((y) => y.noise === noise);
    return x ? pct(x.fraction) : '—';
  };
  const cos = (name: string) => {
    const n = r.noiseDirection.find((y) => y.name === name && y.noise === noisy);
    return n ? n.cosine.toFixed(2) : '—';
  };
  return `| ${label} | ${cell(def(0))} / ${cell(def(noisy))} | ${rec(0)} / ${rec(noisy)} | ${cos('default')} / ${cos('bad')} |`;
}
