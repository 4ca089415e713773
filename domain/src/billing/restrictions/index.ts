export * from './usage-violations.ts';
export * from './restriction-lifecycle.ts';
