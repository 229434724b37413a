import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A throwaway git repository with hour-spaced commit dates starting 2023-01-01T00:00Z. */
export class GitFixture {
  readonly path = mkdtempSync(join(tmpdir(), 'sextant-eval-repo-'));
  private hour = 0;

  constructor() {
    this.git(['init', '-q', '-b', 'main']);
  }

  git(args: string[], author = { name: 'Ada Dev', email: 'ada@example.com' }): string {
    const date = new Date(Date.UTC(2023, 0, 1) + this.hour * 3600_000).toISOString();
    return execFileSync('git', ['-c', `user.name=${author.name}`, '-c', `user.email=${author.email}`, '-c', 'commit.gpgsign=false', ...args], {
      cwd: this.path,
      encoding: 'utf8',
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
  }

  commit(message: string, files: Record<string, string> = {}, author?: { name: string; email: string }): string {
    for (const [p, c] of Object.entries(files)) {
      mkdirSync(dirname(join(this.path, p)), { recursive: true });
      writeFileSync(join(this.path, p), c);
    }
    this.git(['add', '-A']);
    this.hour += 1;
    this.git(['commit', '-q', '--allow-empty', '-m', message], author);
    return this.git(['rev-parse', 'HEAD']).trim();
  }

  mv(from: string, to: string): void {
    mkdirSync(dirname(join(this.path, to)), { recursive: true });
    this.git(['mv', from, to]);
  }

  dispose(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}
