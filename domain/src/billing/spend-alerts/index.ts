export * from './spend-alert-schema.ts';
export * from './spend-alerts.ts';
export * from './spend-alert-banner.ts';
