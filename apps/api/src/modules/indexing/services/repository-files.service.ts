import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import { MAX_FILE_VIEW_BYTES, type RepositoryFile } from '@sextant/contracts';
import { codeHostFileUrl, runGit } from '@sextant/indexer';
import { DomainError, DomainErrorCode, notFound } from '../../../common/domain-error';
import { FilesRepository } from '../repositories/files.repository';
import { RepositoriesRepository } from '../repositories/repositories.repository';
import { isWithin } from './repository-location';

/**
 * Reads whole indexed files for the dashboard's file view. Only paths the index holds as
 * `indexed` are served (secrets and ignored files never are), and the real path must stay
 * inside the repository's real root, so neither `..` nor a symlink swapped in after
 * indexing reads anything else.
 */
@Injectable()
export class RepositoryFilesService {
  constructor(
    private readonly repos: RepositoriesRepository,
    private readonly files: FilesRepository,
  ) {}

  async read(workspaceId: string, repositoryId: string, filePath: string): Promise<RepositoryFile> {
    const repo = await this.repos.findById(workspaceId, repositoryId);
    if (!repo) throw notFound('Repository', repositoryId);
    const [row] = await this.files.findByPaths(workspaceId, repositoryId, [filePath]);
    if (row?.state === 'history') throw new DomainError(DomainErrorCode.NotFound, `${filePath} is known from the task history only: its content is not indexed (a lockfile, build output or a file too large to read)`, { path: filePath });
    if (!row || row.state !== 'indexed') throw new DomainError(DomainErrorCode.NotFound, `${filePath} is not an indexed file of ${repo.name}`, { path: filePath });
    let root: string;
    let real: string;
    try {
      root = fs.realpathSync(repo.rootPath);
      real = fs.realpathSync(path.resolve(root, filePath));
    } catch {
      throw new DomainError(DomainErrorCode.NotFound, `${filePath} is no longer on disk; re-index ${repo.name}`, { path: filePath });
    }
    if (!isWithin(real, root) || real === root) throw new DomainError(DomainErrorCode.PathNotAllowed, `${filePath} resolves outside the repository`, { path: filePath });
    const stat = fs.statSync(real);
    if (!stat.isFile()) throw new DomainError(DomainErrorCode.NotFound, `${filePath} is not a file`, { path: filePath });
    if (stat.size > MAX_FILE_VIEW_BYTES) {
      throw new DomainError(DomainErrorCode.InvalidInput, `${filePath} is ${stat.size} bytes; the file view shows files up to ${MAX_FILE_VIEW_BYTES} bytes`, { path: filePath, size: stat.size });
    }
    const buffer = fs.readFileSync(real);
    const commit = repo.lastIndexedCommit;
    const remote = commit ? await this.remoteOf(repo.gitUrl, repo.rootPath) : null;
    return {
      repository_id: repo.id,
      repository_name: repo.name,
      path: row.path,
      lang: row.lang,
      content: buffer.toString('utf8'),
      size: buffer.length,
      indexed_at: row.indexedAt?.toISOString() ?? null,
      indexed_commit: commit,
      changed_since_index: row.contentHash !== null && createHash('sha256').update(buffer).digest('hex') !== row.contentHash,
      code_host: remote && commit ? codeHostFileUrl(remote, commit, row.path) : null,
    };
  }

  /** The URL it was cloned from, else a local checkout's `origin` remote. */
  private async remoteOf(gitUrl: string | null, rootPath: string): Promise<string | null> {
    if (gitUrl) return gitUrl;
    try {
      return (await runGit(rootPath, ['config', '--get', 'remote.origin.url'])).trim() || null;
    } catch {
      return null; // no origin, or not a git checkout
    }
  }
}
