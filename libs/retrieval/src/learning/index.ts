export * from './learner-params';
export * from './normalise-weights';
export * from './credit-assignment';
export * from './pairwise-gradient';
export * from './weight-update';
export * from './rating-cap';
export * from './rated-page';
