export * from './permissions/index.ts';
export * from './organization/index.ts';
export * from './schemas/index.ts';
export * from './format/index.ts';
