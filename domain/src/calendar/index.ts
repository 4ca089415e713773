export * from './billing-cycle.ts';
