import type { Provider } from '@nestjs/common';
import { StructuralPriors } from '@sextant/retrieval';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.schema';

/** The structural-prior table every fused ranking is multiplied by (`SEXTANT_PRIORS_FILE`, else the built-in one). */
export const STRUCTURAL_PRIORS = Symbol('STRUCTURAL_PRIORS');

export const structuralPriorsProvider: Provider = {
  provide: STRUCTURAL_PRIORS,
  useFactory: (config: AppConfig) => new StructuralPriors(config.ranking.priors.rules, { defaultWeight: config.ranking.priors.defaultWeight }),
  inject: [APP_CONFIG],
};
