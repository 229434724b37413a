import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { TasksSearchPool1763850000000 } from './1763850000000-tasks-search-pool';
import { ApiKeys1763900000000 } from './1763900000000-api-keys';
import { Feedback1764000000000 } from './1764000000000-feedback';
import { FileStatKey1764100000000 } from './1764100000000-file-stat-key';
import { EvalReports1764200000000 } from './1764200000000-eval-reports';
import { RankerModels1764600000000 } from './1764600000000-ranker-models';
import { McpSources1764800000000 } from './1764800000000-mcp-sources';
import { CodeGraph1764700000000 } from './1764700000000-code-graph';
import { FilesWorkspacePathIndex1764900000000 } from './1764900000000-files-workspace-path-index';
import { SymbolsFromGraph1765000000000 } from './1765000000000-symbols-from-graph';
import { GraphFilesStampIndex1765100000000 } from './1765100000000-graph-files-stamp-index';

/**
 * Every migration, oldest first. Hand-written, reversible, never edited after they land;
 * `synchronize` is never used. They run at start-up and via `sextant db migrate`.
 */
export const migrations = [InitialSchema1763800000000, TasksSearchPool1763850000000, ApiKeys1763900000000, Feedback1764000000000, FileStatKey1764100000000, EvalReports1764200000000, RankerModels1764600000000, CodeGraph1764700000000, McpSources1764800000000, FilesWorkspacePathIndex1764900000000, SymbolsFromGraph1765000000000, GraphFilesStampIndex1765100000000];
