import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestRepo } from './__tests__/test-repo';
import { runGit, runGitBuffer } from './git-command';

/**
 * A repository whose own config names programs for git to run: each `touch`es a marker.
 * Plain git runs them (the control below); runGit must not, whatever the subcommand.
 */
function hostileRepo(markers: string): TestRepo {
  const repo = new TestRepo();
  repo.commit('init', { 'src/app.ts': 'export const a = 1;\n', 'src/data.txt': 'rows\n', '.gitattributes': 'src/data.txt filter=evil diff=evil\n' });
  repo.commit('second', { 'src/data.txt': 'rows\nmore\n' });
  const evil = (name: string) => `touch ${join(markers, name)}; false`;
  repo.git(['config', 'core.fsmonitor', evil('fsmonitor')]);
  repo.git(['config', 'filter.evil.clean', `touch ${join(markers, 'clean')}; cat`]);
  repo.git(['config', 'filter.evil.smudge', `touch ${join(markers, 'smudge')}; cat`]);
  repo.git(['config', 'diff.evil.textconv', `touch ${join(markers, 'textconv')}; cat`]);
  repo.git(['config', 'diff.external', evil('extdiff')]);
  repo.git(['config', 'core.pager', evil('pager')]);
  // A dirty work tree makes status consult fsmonitor and diff read (and filter) the file.
  appendFileSync(join(repo.path, 'src/data.txt'), 'dirty\n');
  return repo;
}

const COMMANDS: string[][] = [
  ['status', '--short'],
  ['diff', 'HEAD'],
  ['diff', 'HEAD~1', 'HEAD'],
  ['log', '-p', '-2'],
  ['show', 'HEAD'],
  ['diff', '--relative', '--name-status', '-M', '-z', 'HEAD~1', '--'],
];

describe('runGit neutralises programs named by the repository it reads', () => {
  let markers: string;
  let repo: TestRepo;

  beforeEach(() => {
    markers = mkdtempSync(join(tmpdir(), 'sextant-markers-'));
    repo = hostileRepo(markers);
  });
  afterEach(() => {
    repo.dispose();
    rmSync(markers, { recursive: true, force: true });
  });

  it('control: plain git runs the fsmonitor hook, the clean filter, textconv and the external diff', () => {
    for (const args of COMMANDS) {
      try {
        execFileSync('git', args, { cwd: repo.path, stdio: 'ignore' });
      } catch {
        // the hooks exit non-zero; git may carry on or fail, either way they ran
      }
    }
    expect(readdirSync(markers).sort()).toEqual(expect.arrayContaining(['clean', 'extdiff', 'fsmonitor']));
  });

  it.each(COMMANDS.map((args) => [args.join(' '), args]))('git %s runs none of them', async (_name, args) => {
    await runGit(repo.path, args as string[]).catch(() => undefined);
    expect(readdirSync(markers)).toEqual([]);
  });

  it('textconv and filters stay off for blob reads too', async () => {
    await runGitBuffer(repo.path, ['cat-file', '--filters', 'HEAD:src/data.txt']).catch(() => undefined);
    await runGitBuffer(repo.path, ['cat-file', '--textconv', 'HEAD:src/data.txt']).catch(() => undefined);
    expect(readdirSync(markers)).toEqual([]);
  });

  it('hooks the repository points at do not run', async () => {
    repo.git(['config', 'core.hooksPath', markers]);
    execFileSync('sh', ['-c', `printf '#!/bin/sh\\ntouch ${join(markers, 'hook-ran')}\\n' > ${join(markers, 'post-checkout')} && chmod +x ${join(markers, 'post-checkout')}`]);
    await runGit(repo.path, ['checkout', '-q', '-b', 'other']).catch(() => undefined);
    expect(readdirSync(markers)).toEqual(['post-checkout']);
  });
});
