export * from './usage-violations.ts';
export * from './restriction-lifecycle.ts';
export * from './restricted-project-message.ts';
