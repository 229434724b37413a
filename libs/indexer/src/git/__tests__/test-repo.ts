import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway git repository in os.tmpdir() with a tiny commit DSL for tests. */
export class TestRepo {
  readonly path = mkdtempSync(join(tmpdir(), 'sextant-git-'));
  private tick = 0;

  constructor() {
    this.git(['init', '-q', '-b', 'main']);
  }

  git(args: string[], author = { name: 'Ada Dev', email: 'ada@example.com' }): string {
    // Fixed, increasing dates keep history order deterministic.
    const date = new Date(Date.UTC(2023, 0, 1) + this.tick * 3600_000).toISOString();
    return execFileSync('git', ['-c', `user.name=${author.name}`, '-c', `user.email=${author.email}`, '-c', 'commit.gpgsign=false', ...args], {
      cwd: this.path,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
  }

  write(path: string, content: string): void {
    mkdirSync(dirname(join(this.path, path)), { recursive: true });
    writeFileSync(join(this.path, path), content);
  }

  /** Writes files, stages everything and commits; returns the new sha. */
  commit(message: string, files: Record<string, string> = {}, author?: { name: string; email: string }): string {
    for (const [p, c] of Object.entries(files)) this.write(p, c);
    this.git(['add', '-A']);
    this.tick += 1;
    this.git(['commit', '-q', '--allow-empty', '-m', message], author);
    return this.head();
  }

  mv(from: string, to: string): void {
    mkdirSync(dirname(join(this.path, to)), { recursive: true });
    this.git(['mv', from, to]);
  }

  rm(path: string): void {
    this.git(['rm', '-q', path]);
  }

  head(): string {
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  /** Merges `branch` into the current branch with a non-fast-forward merge commit. */
  merge(branch: string, message: string): string {
    this.tick += 1;
    this.git(['merge', '-q', '--no-ff', branch, '-m', message]);
    return this.head();
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
