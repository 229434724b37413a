import { execFile } from 'node:child_process';

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
 * Runs `git -C <repoPath> <args>` without a shell and resolves with stdout as UTF-8.
 * Pager, colour and path quoting are switched off so output is machine-readable.
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
export function runGitBuffer(repoPath: string, args: readonly string[], options: RunGitOptions = {}): Promise<Buffer> {
  const { maxBuffer = DEFAULT_MAX_BUFFER, input } = options;
  const fullArgs = ['-C', repoPath, '-c', 'core.quotePath=false', '-c', 'color.ui=false', '-c', 'log.showSignature=false', ...args];
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      fullArgs,
      { maxBuffer, encoding: 'buffer', env: { ...process.env, GIT_PAGER: 'cat', LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0' } },
      (error, stdout, stderr) => {
        if (error) {
          const code = typeof (error as NodeJS.ErrnoException & { code?: unknown }).code === 'number' ? ((error as { code: number }).code) : null;
          reject(new GitCommandError(args, code, stderr.toString('utf8') || error.message));
          return;
        }
        resolve(stdout);
      },
    );
    if (input !== undefined) {
      child.stdin?.end(input);
    }
  });
}
