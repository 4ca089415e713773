export * from './timeline.ts';
export * from './overage-reading.ts';
export * from './engine.ts';
export * from './lines.ts';
export * from './spend-cap-invoices.ts';
export * from './spend-cap-rules.ts';
export * from './spend-cap-resources.ts';
export * from './spend-cap-preview-contract.ts';
