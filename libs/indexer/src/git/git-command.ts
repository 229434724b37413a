import { processLauncher } from './process-launcher';

/** Options for {@link runGit}. */
export interface RunGitOptions {
  /** Largest stdout accepted, in bytes (default 1 GiB: `git log --name-status` of a big repo is hundreds of MB). */
  maxBuffer?: number;
  /** Text written to git's stdin. */
  input?: string;
}

const DEFAULT_MAX_BUFFER = 1024 * 1024 * 1024;

/** An error from a git invocation, carrying the arguments and git's own message. */
export class GitCommandError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(' ')} failed${exitCode === null ? '' : ` (exit ${exitCode})`}: ${stderr.trim() || 'no error output'}`);
    this.name = 'GitCommandError';
  }
}

/**
 * Configuration given on every git command line. Command-line `-c` beats anything in the
 * repository's own `.git/config`, so a hostile repository cannot make git run its code:
 * no fsmonitor hook, no hooks, no embedded bare repositories, no ssh command, pager,
 * askpass or credential helper of its choosing, and only the transports we support.
 */
export const HARDENED_GIT_CONFIG: readonly string[] = [
  'core.fsmonitor=false',
  'core.hooksPath=/dev/null',
  'safe.bareRepository=explicit',
  'protocol.allow=never',
  'protocol.https.allow=always',
  'protocol.http.allow=always',
  'protocol.ssh.allow=always',
  'protocol.file.allow=always',
  'protocol.git.allow=always',
  'core.sshCommand=ssh',
  'core.pager=cat',
  'core.askPass=',
  'credential.helper=',
  'core.alternateRefsCommand=',
  'core.gitProxy=',
  'uploadpack.packObjectsHook=',
  'core.quotePath=false',
  'color.ui=false',
  'log.showSignature=false',
];

/** Subcommands that can print diffs: external diff drivers and textconv filters are switched off for them. */
const DIFF_COMMANDS = new Set(['diff', 'log', 'show', 'diff-tree', 'diff-index', 'diff-files']);
/** Environment inherited from the server that would point git somewhere else or at other config. */
const DROPPED_ENV = /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|CONFIG.*|EXTERNAL_DIFF|NAMESPACE|CEILING_DIRECTORIES|DISCOVERY_ACROSS_FILESYSTEM|EXEC_PATH|TEMPLATE_DIR)$/;

/** The environment every git process gets: no system config, no prompts, no pager, C locale. */
export function hardenedGitEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!DROPPED_ENV.test(k)) env[k] = v;
  return { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_ATTR_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'true', SSH_ASKPASS: 'true', GIT_PAGER: 'cat', LC_ALL: 'C' };
}

/** `-c` pairs for every git invocation, plus the arguments a diff-printing subcommand needs. */
function hardenedArgs(args: readonly string[], driverOverrides: readonly string[]): string[] {
  const config = [...HARDENED_GIT_CONFIG, ...driverOverrides].flatMap((c) => ['-c', c]);
  const [sub, ...rest] = args;
  if (sub !== undefined && DIFF_COMMANDS.has(sub)) return [...config, sub, '--no-ext-diff', '--no-textconv', ...rest.filter((a) => a !== '--no-ext-diff' && a !== '--no-textconv')];
  return [...config, ...args];
}

/**
 * Programs a repository's config attaches to paths through `.gitattributes`: clean/smudge/
 * process filters (run whenever git converts a work-tree file), diff textconv and external
 * diff commands, merge drivers. They cannot be disabled wholesale, so each driver the
 * repository names is overridden with an empty command, which git skips.
 */
const DRIVER_KEYS = '^(filter\\..*\\.(clean|smudge|process)|diff\\..*\\.(textconv|command)|merge\\..*\\.driver)$';

async function driverOverrides(repoPath: string): Promise<string[]> {
  let out: Buffer;
  try {
    out = await execGit(['-C', repoPath, ...HARDENED_GIT_CONFIG.flatMap((c) => ['-c', c]), 'config', '--null', '--name-only', '--get-regexp', DRIVER_KEYS], {});
  } catch {
    return []; // no such keys (exit 1), or not a repository: the command itself will say so
  }
  const keys = new Set(out.toString('utf8').split('\0').filter(Boolean));
  const overrides: string[] = [];
  for (const key of keys) {
    overrides.push(`${key}=`);
    if (key.startsWith('filter.')) overrides.push(`${key.slice(0, key.lastIndexOf('.'))}.required=false`);
  }
  return overrides;
}

/**
 * Runs `git -C <repoPath> <args>` without a shell, hardened against the repository it reads
 * ({@link HARDENED_GIT_CONFIG}, {@link hardenedGitEnv}, filter, diff and merge drivers neutralised), and
 * resolves with stdout as UTF-8. Every git invocation in Sextant goes through here or
 * {@link runGitOutside}.
 *
 * @example
 * const head = (await runGit('/repo', ['rev-parse', 'HEAD'])).trim();
 */
export async function runGit(repoPath: string, args: readonly string[], options: RunGitOptions = {}): Promise<string> {
  return (await runGitBuffer(repoPath, args, options)).toString('utf8');
}

/**
 * Like {@link runGit} but resolves with raw stdout bytes (for `cat-file --batch` and other binary output).
 *
 * @example
 * const blob = await runGitBuffer('/repo', ['cat-file', 'blob', sha]);
 */
export async function runGitBuffer(repoPath: string, args: readonly string[], options: RunGitOptions = {}): Promise<Buffer> {
  const overrides = await driverOverrides(repoPath);
  return execGit(['-C', repoPath, ...hardenedArgs(args, overrides)], options, args);
}

/**
 * A hardened git command that does not read an existing repository (`clone`, `ls-remote`),
 * run in `cwd`.
 *
 * @example
 * await runGitOutside(['clone', '--quiet', '--', url, dest], { timeoutMs: 600_000 });
 */
export async function runGitOutside(args: readonly string[], options: RunGitOptions & { cwd?: string; timeoutMs?: number } = {}): Promise<string> {
  return (await execGit(hardenedArgs(args, []), options, args)).toString('utf8');
}

async function execGit(fullArgs: readonly string[], options: RunGitOptions & { cwd?: string; timeoutMs?: number }, shownArgs: readonly string[] = fullArgs): Promise<Buffer> {
  const { maxBuffer = DEFAULT_MAX_BUFFER, input, cwd, timeoutMs } = options;
  const result = await processLauncher.run({ file: 'git', args: fullArgs, env: hardenedGitEnv(), cwd, timeout: timeoutMs, maxBuffer, input });
  if (result.ok) return result.stdout;
  throw new GitCommandError(shownArgs, result.failure.exitCode, result.failure.stderr.toString('utf8') || result.failure.message);
}
