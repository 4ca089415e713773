export * from './addons-lost.ts';
export * from './downgrade-outcome.ts';
export * from './exit-survey.ts';
export * from './plan-features-lost.ts';
