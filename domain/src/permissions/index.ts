export * from './roles.ts';
export * from './permissions.ts';
export * from './operations.ts';
export * from './invoice-visibility.ts';
