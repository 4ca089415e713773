export * from './top-up.ts';
export * from './payment-methods.ts';
