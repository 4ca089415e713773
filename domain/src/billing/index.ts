export * from './catalogue.ts';
export * from './schemas.ts';
export * from './plans-list.ts';
export * from './invoice-input.ts';
export * from './projection.ts';
export * from './projection-explained.ts';
export * from './overage.ts';
export * from './upcoming-invoice.ts';
export * from './line-quantities.ts';
export { quantityMakesAmount } from './invoice-line.ts';
export * from './late-usage.ts';
export * from './usage-summary.ts';
export * from './restriction-banner.ts';
export * from './proration.ts';
export * from './invoices.ts';
export * from './invoice-grouping.ts';
export * from './format.ts';
export * from './plan-change.ts';
export * from './plan-change-rules.ts';
export * from './plan-change-contract.ts';
export * from './cycle-closing.ts';
export * from './scheduled-change.ts';
export * from './balance-credit.ts';
export * from './entitlements.ts';
export * from './plan-cards.ts';
export * from './upgrade-survey.ts';
export * from './downgrade/index.ts';
export * from './spend-cap/index.ts';
export * from './restrictions/index.ts';
export * from './spend-alerts/index.ts';
export {
  COMPUTE_CREDITS_KEY,
  computeLineKey,
  cycleFraction as referenceCycleFraction,
  referenceBill,
  type ReferenceBill,
  type ReferenceCycle,
  type ReferenceCycleBill,
  type ReferenceEvent,
  type ReferenceLine,
  type ReferenceState,
  type ReferenceTimeline,
} from './reference-pricer.ts';
