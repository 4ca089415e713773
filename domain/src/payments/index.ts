export * from './top-up.ts';
export * from './payment-methods.ts';
export * from './contract.ts';
export * from './backup-card.ts';
export * from './pay-link.ts';
