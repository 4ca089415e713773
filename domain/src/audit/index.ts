export * from './actions.ts';
export * from './describe-audit-entry.ts';
