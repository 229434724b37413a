import * as fs from 'node:fs';
import { checkGlob, DEFAULT_PRIOR_RULES, type PriorRule } from '@sextant/retrieval';
import { z } from 'zod';

/**
 * `SEXTANT_PRIORS_FILE`: the structural-prior table as JSON. `rules` are checked top to
 * bottom, first match wins; with `defaults: "after"` (the default) the built-in table
 * follows them, so a file only needs the rows it changes. A path no rule matches gets
 * `default_weight`.
 *
 * @example
 * { "rules": [{ "label": "docs", "glob": ["docs/**", "**\/*.rst"], "weight": 1 }] }
 */
export const PriorsFileSchema = z
  .object({
    rules: z
      .array(
        z
          .object({
            label: z.string().trim().min(1).max(40),
            glob: z.union([z.string(), z.array(z.string()).min(1).max(20)]),
            weight: z.number().min(0).max(10),
          })
          .strict(),
      )
      .max(100),
    defaults: z.enum(['after', 'none']).default('after'),
    default_weight: z.number().min(0).max(10).default(1),
  })
  .strict();

export interface PriorsConfig {
  rules: PriorRule[];
  defaultWeight: number;
  /** The file they came from, when not the built-in table. */
  file?: string;
}

export const DEFAULT_PRIORS_CONFIG: PriorsConfig = { rules: [...DEFAULT_PRIOR_RULES], defaultWeight: 1 };

/** Reads and validates a priors file; throws an Error whose message says what is wrong with it. */
export function loadPriorsFile(file: string): PriorsConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = PriorsFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(file)'}: ${i.message}`).join('; ')}`);
  }
  const rules = parsed.data.rules.map((r, i): PriorRule => {
    const globs = Array.isArray(r.glob) ? r.glob : [r.glob];
    // The same bounds as search filters: a pathological glob would be matched against every result path.
    for (const g of globs) {
      try {
        checkGlob(g, `rules.${i}.glob`);
      } catch (err) {
        throw new Error(`${file}: ${(err as Error).message}`);
      }
    }
    return { label: r.label, glob: globs, weight: r.weight };
  });
  return { rules: parsed.data.defaults === 'after' ? [...rules, ...DEFAULT_PRIOR_RULES] : rules, defaultWeight: parsed.data.default_weight, file };
}
