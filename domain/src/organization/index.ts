export * from './partners.ts';
export * from './plans.ts';
export * from './restriction.ts';
export * from './projects.ts';
export * from './features.ts';
export * from './billing-page.ts';
export * from './free-project-limit.ts';
