/** Shared flags for every benchmark: `--json` (last line is one JSON object), `--path DIR`, `--files N`. */
export interface BenchArgs {
  json: boolean;
  path?: string;
  files?: number;
  [flag: string]: unknown;
}

export function parseBenchArgs(argv = process.argv.slice(2)): BenchArgs {
  const args: BenchArgs = { json: false };
  const rest = argv.filter((a) => a !== '--');
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i];
    if (!a.startsWith('--')) continue;
    const key = a.slice(2);
    const next = rest[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      args[key] = /^\d+(\.\d+)?$/.test(next) ? Number(next) : next;
      i++;
    } else args[key] = true;
  }
  return args;
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Tracks peak RSS by sampling (process.resourceUsage().maxRSS is lifetime peak in KB). */
export function peakRssMb(): number {
  return round(process.resourceUsage().maxRSS / 1024, 0);
}

export function report(args: BenchArgs, result: Record<string, unknown>, lines: string[] = []): void {
  if (!args.json) for (const l of lines) console.log(l);
  console.log(JSON.stringify(result));
}
