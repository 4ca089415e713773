export * from './permissions/index.ts';
export * from './organization/index.ts';
export * from './schemas/index.ts';
export * from './format/index.ts';
export * from './money/index.ts';
export * from './billing/index.ts';
export * from './calendar/index.ts';
export * from './customer/index.ts';
