import { EmbeddingError } from './embedding.error';

/**
 * The provider returned vectors of a different length than configured, e.g. the model
 * behind an OpenAI-compatible URL was swapped, or `EMBEDDINGS_DIM` does not match the model.
 */
export class EmbeddingDimensionMismatchError extends EmbeddingError {
  override readonly name = 'EmbeddingDimensionMismatchError';

  constructor(
    readonly modelId: string,
    readonly expected: number,
    readonly got: number,
  ) {
    super(
      'dimension_mismatch',
      `Embedding dimension mismatch for ${modelId}: expected ${expected} dimensions, got ${got}. ` +
        `Set the configured dimensions (EMBEDDINGS_DIM) to the model's real output size, or pick a model that supports ${expected}.`,
    );
  }
}
