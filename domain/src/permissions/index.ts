export * from './roles.ts';
export * from './permissions.ts';
export * from './operations.ts';
