export * from './tax-id-kind.ts';
export * from './tax-id-kinds.ts';
export * from './countries.ts';
export * from './schemas.ts';
export * from './tax-id.ts';
export * from './billing-data.ts';
export * from './reverse-charge.ts';
