/** High-confidence secret shapes; anything looser would redact ordinary code. */
const SECRET_PATTERNS: readonly RegExp[] = [
  // PEM / OpenSSH / PGP private key blocks (the whole block, header to footer).
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/g,
  // AWS access key ids and secret keys assigned to an aws_secret name.
  /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
  // (`keep` is left in place; a lookbehind here made the engine try the name at every position of every file.)
  /(?<keep>aws_?secret_?(?:access_?)?key["']?\s*[:=]\s*["']?)[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])/gi,
  // GitHub tokens (classic and fine-grained).
  /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g,
  // OpenAI keys.
  /\bsk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g,
  /\bsk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}\b/g,
  /\bsk-[A-Za-z0-9]{48}\b/g,
  // Slack tokens and webhooks.
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /https:\/\/hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g,
  // Stripe live secrets and Google API keys.
  /\b[rs]k_live_[A-Za-z0-9]{20,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  // Sextant's own API keys (`sxt_<8 hex>_<secret>`), Anthropic keys, npm tokens, GitLab personal access tokens.
  /\bsxt_[0-9a-f]{8}_[0-9A-Za-z]{32,128}\b/g,
  /\bsk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{80,}/g,
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}/g,
  // The password of a connection URL (`postgres://app:…@db/`); scheme, user and host stay. Anchored
  // on `://`: starting at every word to find a scheme made this pattern ten times slower.
  /(?<keep>:\/\/[^\s:@/'"`]*:)[^\s@/'"`]+(?=@)/g,
];

export const REDACTED = '[REDACTED]';

/**
 * Replace high-confidence secrets (private key blocks, Sextant API keys,
 * AWS/GitHub/OpenAI/Anthropic/Slack/Stripe/Google/npm/GitLab style tokens, passwords in
 * connection URLs) with `[REDACTED]`. Newlines inside a redacted span are kept so line
 * numbers of everything after it stay true to the file.
 *
 * @example redactSecrets('token = "ghp_' + 'a'.repeat(36) + '"') // { text: 'token = "[REDACTED]"', redactions: 1 }
 */
export function redactSecrets(text: string): { text: string; redactions: number } {
  let redactions = 0;
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    pattern.lastIndex = 0;
    out = out.replace(pattern, (match: string, ...rest: unknown[]) => {
      redactions++;
      const groups = rest[rest.length - 1] as { keep?: string } | undefined;
      const keep = typeof groups === 'object' && groups?.keep ? groups.keep : '';
      const newlines = match.split('\n').length - 1 - (keep.split('\n').length - 1);
      return keep + REDACTED + '\n'.repeat(newlines);
    });
  }
  return { text: out, redactions };
}
