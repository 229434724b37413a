import type { SourceWeights } from '../fusion/fusion.types';
import type { QueryClass } from '../ranking/query-class';

/**
 * Prior fusion weights per query class, used until the team's ratings learn better ones.
 * Specific queries (identifiers, paths) lean on symbols and keywords; conceptual ones on
 * past tasks and embeddings. Chosen on one evaluation repository and reported untouched on
 * the others (docs/evaluation.md).
 */
export const DEFAULT_FUSION_WEIGHTS: Readonly<Record<QueryClass, Readonly<SourceWeights>>> = {
  specific: { 'file.dense': 1, 'file.keyword': 1.2, 'file.symbol': 1.5, 'task.dense': 0.8, 'task.keyword': 0.8, 'file.graph': 0.25 },
  conceptual: { 'file.dense': 1, 'file.keyword': 1, 'file.symbol': 0.5, 'task.dense': 1.2, 'task.keyword': 1, 'file.graph': 0.25 },
};
