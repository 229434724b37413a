export * from './learner-params';
export * from './normalise-weights';
export * from './credit-assignment';
export * from './weight-update';
export * from './rating-cap';
