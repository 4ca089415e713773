export * from './common.ts';
export * from './auth.ts';
export * from './organization.ts';
export * from './billing-emails.ts';
export * from './usage-events.ts';
export * from './invoice-detail.ts';
export * from './usage-query.ts';
export * from './surveys.ts';
