import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { DomainError, DomainErrorCode } from '../../../common/domain-error';

const execFileAsync = promisify(execFile);

/**
 * Resolves a user-given local path to its real location and checks it lies under one of
 * the allowed roots (both sides through realpath, so symlinks cannot smuggle a path out).
 */
export function resolveAllowedPath(input: string, allowedRoots: string[]): string {
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(input));
  } catch {
    throw new DomainError(DomainErrorCode.InvalidInput, `Path does not exist: ${input}`, { path: input });
  }
  if (!fs.statSync(real).isDirectory()) throw new DomainError(DomainErrorCode.InvalidInput, `Path is not a directory: ${input}`, { path: input });
  const inside = allowedRoots.some((root) => {
    let realRoot: string;
    try {
      realRoot = fs.realpathSync(root);
    } catch {
      return false;
    }
    const rel = path.relative(realRoot, real);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
  if (!inside) {
    throw new DomainError(DomainErrorCode.PathNotAllowed, `Path ${input} is outside the allowed roots (${allowedRoots.join(', ')}); set SEXTANT_ALLOWED_ROOTS to allow it`, {
      path: input,
      allowed_roots: allowedRoots,
    });
  }
  return real;
}

const ALLOWED_GIT_URL = /^(https?:\/\/|ssh:\/\/|git:\/\/|file:\/\/|[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:)/;

/** Checks the URL's shape before git sees it (no `ext::` transports, no option injection). */
export function validateGitUrl(url: string): string {
  const trimmed = url.trim();
  if (!ALLOWED_GIT_URL.test(trimmed) || trimmed.startsWith('-') || /\s/.test(trimmed)) {
    throw new DomainError(DomainErrorCode.InvalidInput, `Not a supported git URL: ${url} (use https://, ssh://, git@host:path or file://)`, { git_url: url });
  }
  return trimmed;
}

/**
 * Clones with symlinks checked out as plain files and hooks disabled, so a hostile
 * repository can neither point outside the clone nor run code on our machine.
 */
export async function cloneRepository(url: string, destination: string, timeoutMs = 10 * 60_000): Promise<void> {
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  try {
    await execFileAsync(
      'git',
      ['-c', 'core.symlinks=false', '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.ext.allow=never', 'clone', '--quiet', '--no-recurse-submodules', '--', url, destination],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo' } },
    );
    // Keep the settings for later fetches too.
    await execFileAsync('git', ['-C', destination, 'config', 'core.symlinks', 'false']);
    await execFileAsync('git', ['-C', destination, 'config', 'core.hooksPath', '/dev/null']);
  } catch (err) {
    fs.rmSync(destination, { recursive: true, force: true });
    const stderr = (err as { stderr?: string }).stderr?.trim().split('\n').slice(-2).join(' ') ?? (err as Error).message;
    throw new DomainError(DomainErrorCode.InvalidInput, `Could not clone ${url}: ${stderr || 'git clone failed'}`, { git_url: url });
  }
}

/** A readable default name: the directory or the URL's last segment without `.git`. */
export function defaultRepositoryName(source: string): string {
  const last = source.replace(/[\\/]+$/, '').split(/[\\/:]/).pop() ?? 'repo';
  return last.replace(/\.git$/, '').replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 200) || 'repo';
}
