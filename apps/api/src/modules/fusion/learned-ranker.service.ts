import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { RankerStatus } from '@sextant/contracts';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CALIBRATION_FIT, ChangeHistory, FileTermCounts, FileTermIndex, type LinearRankerModel } from '@sextant/retrieval';
import { FilesRepository } from '../indexing/repositories/files.repository';
import { RepositoriesRepository } from '../indexing/repositories/repositories.repository';
import { IndexEvents } from '../indexing/services/indexing.tokens';
import { TASKS_CHANGED } from '../task-history/task-history.service';
import { TasksRepository } from '../task-history/tasks.repository';
import { RankerModelEntity } from './ranker-model.entity';

/** Workspaces with more indexed files than this get no whole-file BM25 feature (memory and build time stay bounded). */
export const MAX_FILE_INDEX_FILES = 20_000;
const MAX_FILE_INDEX_BYTES = 1024 * 1024;

/**
 * What one fit stores: the code-first model (its weights are the ones status shows) and, once
 * accepted, the all-changed model that orders the places below the top ones (`reorderBelowTop`).
 */
export type StoredRanker = LinearRankerModel & { allChanged?: LinearRankerModel };

/** The models that rank a workspace's default searches. */
export interface ActiveRanker {
  version: number;
  model: LinearRankerModel;
  /** Absent in models fitted before the places below the top were ordered by a second model: the code-first order then holds throughout. */
  allChanged?: LinearRankerModel;
}

/** What training stores beside a model. */
export interface RankerReport {
  history_tasks: number;
  examples: number;
  /** Rated searches among the training queries (absent in reports of models fitted before ratings trained the ranker). */
  rated_searches?: number;
  /** Searches with a result rated up when the model was fitted (RatedSearchesRepository.count): new ratings are counted from here. */
  rated_seen?: number;
  validation: RankerStatus['validation'];
  message: string;
}

/**
 * The learned-ranker store: fitted models per workspace (versioned rows), the active one
 * cached in memory, and the workspace's change history (which file changed when) that the
 * ranker's history features read, cached until tasks change.
 */
@Injectable()
export class LearnedRankerService {
  private readonly active = new Map<string, Promise<ActiveRanker | null>>();
  private readonly histories = new Map<string, Promise<ChangeHistory>>();
  private readonly fileIndexes = new Map<string, Promise<FileTermIndex | null>>();
  private readonly rebuilding = new Map<string, Promise<FileTermIndex | null>>();

  constructor(
    @InjectRepository(RankerModelEntity) private readonly rows: Repository<RankerModelEntity>,
    private readonly tasks: TasksRepository,
    private readonly files: FilesRepository,
    private readonly repos: RepositoriesRepository,
  ) {}

  /**
   * A finished index job rebuilds the workspace's whole-file index in the background; searches
   * keep the previous one until the new one is ready (reading and tokenizing thousands of files
   * takes seconds, which a search should not wait for).
   */
  @OnEvent(IndexEvents.Done)
  onIndexDone(event: { workspace_id?: string }): void {
    const workspaceId = event.workspace_id;
    if (!workspaceId || !this.fileIndexes.has(workspaceId)) return;
    const next = this.buildFileIndex(workspaceId);
    this.rebuilding.set(workspaceId, next);
    next.then(
      () => {
        if (this.rebuilding.get(workspaceId) !== next) return;
        this.rebuilding.delete(workspaceId);
        this.fileIndexes.set(workspaceId, next);
      },
      () => {
        if (this.rebuilding.get(workspaceId) === next) this.rebuilding.delete(workspaceId);
      },
    );
  }

  /** Settles when no whole-file index rebuild is running for the workspace (tests, evaluation). */
  async settled(workspaceId: string): Promise<void> {
    for (let next = this.rebuilding.get(workspaceId); next; next = this.rebuilding.get(workspaceId)) await next.catch(() => undefined);
  }

  /**
   * Whole-file BM25 over the workspace's indexed files, read from their repositories (null
   * for workspaces over {@link MAX_FILE_INDEX_FILES} files: the feature is then absent).
   * Built on first use; rebuilt in the background after each index job.
   */
  fileIndex(workspaceId: string): Promise<FileTermIndex | null> {
    let hit = this.fileIndexes.get(workspaceId);
    if (!hit) {
      hit = this.buildFileIndex(workspaceId);
      hit.catch(() => this.fileIndexes.delete(workspaceId));
      this.fileIndexes.set(workspaceId, hit);
    }
    return hit;
  }

  private async buildFileIndex(workspaceId: string): Promise<FileTermIndex | null> {
    // History-only files too (a lockfile names the packages a change is about); only term counts are kept.
    const rows = await this.files.listIndexed(workspaceId, { historyOnly: true });
    if (rows.length > MAX_FILE_INDEX_FILES) return null;
    const roots = new Map((await this.repos.list(workspaceId)).map((r) => [r.id, r.rootPath]));
    const counts = new FileTermCounts();
    for (const row of rows) {
      const root = roots.get(row.repositoryId);
      if (!root) continue;
      const file = join(root, row.path);
      try {
        // Only term statistics are kept; the text itself never leaves this function.
        if ((await stat(file)).size > MAX_FILE_INDEX_BYTES) continue;
        counts.add(row.path, await readFile(file, 'utf8'));
      } catch {
        // Deleted since it was indexed: the next index job drops it anyway.
      }
    }
    return new FileTermIndex(counts);
  }

  @OnEvent(TASKS_CHANGED)
  onTasksChanged(event: { workspaceId?: string }): void {
    if (event.workspaceId) this.histories.delete(event.workspaceId);
  }

  /** The active model, or null: searches then use plain fusion. */
  current(workspaceId: string): Promise<ActiveRanker | null> {
    let hit = this.active.get(workspaceId);
    if (!hit) {
      hit = this.rows
        .findOne({ where: { workspaceId, active: true }, order: { version: 'DESC' } })
        .then((row) => {
          if (!row) return null;
          const { allChanged, ...model } = JSON.parse(row.model) as StoredRanker;
          return { version: row.version, model, ...(allChanged ? { allChanged } : {}) };
        });
      hit.catch(() => this.active.delete(workspaceId));
      this.active.set(workspaceId, hit);
    }
    return hit;
  }

  /** Which file changed at which position of the history (oldest task = 0). */
  history(workspaceId: string): Promise<ChangeHistory> {
    let hit = this.histories.get(workspaceId);
    if (!hit) {
      hit = this.tasks.listHistory(workspaceId, { withText: true }).then((rows) => new ChangeHistory(rows.map((r) => ({ files: r.files, title: r.title, text: `${r.title}\n${r.body}` }))));
      hit.catch(() => this.histories.delete(workspaceId));
      this.histories.set(workspaceId, hit);
    }
    return hit;
  }

  /** Stores a fitted model; an accepted one becomes active at once. */
  async save(workspaceId: string, model: StoredRanker, report: RankerReport, accepted: boolean): Promise<RankerModelEntity> {
    const last = await this.rows.findOne({ where: { workspaceId }, order: { version: 'DESC' } });
    const row = await this.rows.save(this.rows.create({ id: randomUUID(), workspaceId, version: (last?.version ?? 0) + 1, active: accepted, model: JSON.stringify(model), report: JSON.stringify(report) }));
    if (accepted) {
      await this.rows.update({ workspaceId, active: true }, { active: false });
      await this.rows.update({ id: row.id }, { active: true });
    }
    this.active.delete(workspaceId);
    return row;
  }

  /** Workspaces whose newest fit's calibration was made by an older {@link CALIBRATION_FIT}: their scores are refitted. */
  async staleCalibrations(): Promise<string[]> {
    // Only the newest model of each workspace is read: older versions can be many.
    const workspaceIds = new Set((await this.rows.find({ select: { workspaceId: true } })).map((r) => r.workspaceId));
    const stale: string[] = [];
    for (const workspaceId of workspaceIds) if (await this.calibrationStale(workspaceId)) stale.push(workspaceId);
    return stale;
  }

  /** Whether the workspace's newest fit has probabilities from an older calibration method (false without a fit). */
  async calibrationStale(workspaceId: string): Promise<boolean> {
    const latest = await this.rows.findOne({ where: { workspaceId }, order: { version: 'DESC' } });
    return latest ? calibrationIsStale(latest.model) : false;
  }

  /** The report of the newest fit (active or not), or null before the first. */
  async lastReport(workspaceId: string): Promise<RankerReport | null> {
    const latest = await this.rows.findOne({ where: { workspaceId }, order: { version: 'DESC' } });
    return latest ? (JSON.parse(latest.report) as RankerReport) : null;
  }

  /** The newest model row (active or not) and the active one, for status. */
  async status(workspaceId: string, fallbackMessage: string): Promise<RankerStatus> {
    const latest = await this.rows.findOne({ where: { workspaceId }, order: { version: 'DESC' } });
    const active = await this.rows.findOne({ where: { workspaceId, active: true }, order: { version: 'DESC' } });
    const shown = active ?? latest;
    const historyTasks = (await this.history(workspaceId)).size;
    if (!shown) return { state: 'none', model_version: null, trained_at: null, history_tasks: historyTasks, trained_on_tasks: null, examples: 0, rated_searches: 0, validation: null, top_weights: [], message: fallbackMessage };
    const report = JSON.parse(latest!.report) as RankerReport;
    const model = JSON.parse(shown.model) as LinearRankerModel;
    return {
      state: active ? 'active' : 'rejected',
      model_version: shown.version,
      trained_at: latest!.createdAt.toISOString(),
      history_tasks: historyTasks,
      trained_on_tasks: report.history_tasks,
      examples: report.examples,
      rated_searches: report.rated_searches ?? 0,
      validation: report.validation,
      top_weights: model.featureNames
        .map((feature, i) => ({ feature, weight: Math.round(model.weights[i] * 1000) / 1000 }))
        .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight))
        .slice(0, 8),
      message: report.message,
    };
  }
}

function calibrationIsStale(storedModel: string): boolean {
  return (JSON.parse(storedModel) as StoredRanker).calibrationFit !== CALIBRATION_FIT;
}
