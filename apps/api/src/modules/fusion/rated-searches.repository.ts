import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { CHUNK_INDEX, type ChunkIndex } from '@sextant/retrieval';
import { In, Not, type Repository } from 'typeorm';
import { FeedbackRatingEntity } from '../feedback/feedback-rating.entity';
import { SearchLogEntity } from './search-log.entity';

/** A past search people rated: what was asked, when, and each file they rated up with its mean rating. */
export interface RatedSearch {
  searchId: string;
  query: string;
  searchedAt: Date;
  /** Path -> mean rating of the file (its file result and its chunks) over everyone who rated it; only files above 0. */
  grades: Map<string, number>;
}

/** Ratings read per training run at most (the newest): bounds the work when a workspace has rated for years. */
const MAX_RATING_ROWS = 20_000;

/**
 * The rated searches the learned ranker trains on, read from the feedback ratings and the
 * search log. Ratings are of file results (`file:<repo>:<path>`) or chunk results (chunk ids,
 * resolved to their file); a chunk no longer in the index is skipped.
 */
@Injectable()
export class RatedSearchesRepository {
  constructor(
    @InjectRepository(FeedbackRatingEntity) private readonly ratings: Repository<FeedbackRatingEntity>,
    @InjectRepository(SearchLogEntity) private readonly logs: Repository<SearchLogEntity>,
    @Inject(CHUNK_INDEX) private readonly chunks: ChunkIndex,
  ) {}

  /** How many searches of the workspace have at least one result rated up. */
  async count(workspaceId: string): Promise<number> {
    const row = await this.ratings
      .createQueryBuilder('r')
      .select('COUNT(DISTINCT r.search_id)', 'n')
      .where('r.workspace_id = :workspaceId AND r.rating > 0', { workspaceId })
      .getRawOne<{ n: string | number }>();
    return Number(row?.n ?? 0);
  }

  /** The newest `limit` searches with a file rated up (mean rating above 0), oldest first. */
  async list(workspaceId: string, limit: number): Promise<RatedSearch[]> {
    const rows = await this.ratings.find({
      where: { workspaceId, rating: Not(0) },
      select: ['searchId', 'itemId', 'rating', 'updatedAt'],
      order: { updatedAt: 'DESC' },
      take: MAX_RATING_ROWS,
    });
    // The newest searches first (rows come newest first); a few spare ones stand in for searches whose ratings are all negative.
    const searches = [...new Set(rows.map((r) => r.searchId))].slice(0, limit * 3);
    const wanted = new Set(searches);
    const recent = rows.filter((r) => wanted.has(r.searchId));
    const chunkIds = [...new Set(recent.filter((r) => !r.itemId.startsWith('file:')).map((r) => r.itemId))];
    const chunkPaths = new Map((chunkIds.length ? await this.chunks.get(chunkIds, { workspaceId }) : []).map((p) => [p.id, p.payload.path]));
    const bySearch = new Map<string, Map<string, number[]>>();
    for (const r of recent) {
      const path = r.itemId.startsWith('file:') ? r.itemId.slice(r.itemId.indexOf(':', 5) + 1) : chunkPaths.get(r.itemId);
      if (!path) continue;
      const files = bySearch.get(r.searchId) ?? new Map<string, number[]>();
      files.set(path, [...(files.get(path) ?? []), r.rating]);
      bySearch.set(r.searchId, files);
    }
    const logs = bySearch.size ? await this.logs.find({ where: { workspaceId, id: In([...bySearch.keys()]) }, select: ['id', 'query', 'createdAt'] }) : [];
    const out: RatedSearch[] = [];
    for (const log of logs) {
      const grades = new Map<string, number>();
      for (const [path, values] of bySearch.get(log.id)!) {
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        if (mean > 0) grades.set(path, mean);
      }
      if (grades.size) out.push({ searchId: log.id, query: log.query, searchedAt: log.createdAt, grades });
    }
    out.sort((a, b) => a.searchedAt.getTime() - b.searchedAt.getTime() || (a.searchId < b.searchId ? -1 : 1));
    return out.slice(-limit);
  }
}
