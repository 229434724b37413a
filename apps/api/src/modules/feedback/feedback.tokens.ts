import { DEFAULT_LEARNER_PARAMS, type LearnerParams } from '@sextant/retrieval';

/** DI token for the learner's parameters (defaults: DEFAULT_LEARNER_PARAMS). */
export const FEEDBACK_LEARNER_PARAMS = Symbol('FEEDBACK_LEARNER_PARAMS');

export const feedbackParamsProvider = { provide: FEEDBACK_LEARNER_PARAMS, useValue: { ...DEFAULT_LEARNER_PARAMS } satisfies LearnerParams };

/** Origins of weight versions a person chose: decay pulls toward the newest of them. */
export const PERSON_ORIGINS = ['reset', 'admin', 'simulation'] as const;
