import { z } from 'zod';
import { RESTRICTION_STATUSES, VIOLATION_CODES } from '../organization/restriction.ts';

/**
 * Why an organization's restriction state changed (product-decisions §11). Each transition the billing
 * job, ingestion or a payment makes is recorded with one of these, and read back by the organization's
 * members (`GET /platform/organizations/{slug}/billing/restriction-history`).
 */
export const RESTRICTION_REASONS = [
  /** Capped usage went above a quota: the grace period starts. */
  'usage_above_quota',
  /** The grace period ended with the usage still above a quota. */
  'grace_period_ended',
  /** The next cycle went above a quota again after the grace period was over. */
  'usage_above_quota_again',
  /** A cycle ended under every quota. */
  'cycle_ended_under_quota',
  /** The organization moved to a plan whose quotas or billing lift the violation. */
  'plan_upgraded',
  /** The spend cap was turned off: usage beyond the quota is billed, not limited. */
  'spend_cap_disabled',
  /** An invoice was still unpaid 14 days after it was finalized. */
  'payment_overdue',
  /** Nothing is overdue any more (paid or voided). */
  'overdue_payment_settled',
] as const;
export type RestrictionReason = (typeof RESTRICTION_REASONS)[number];

export const restrictionTransitionSchema = z.object({
  /** Unix seconds. */
  at: z.number().int(),
  /** null: no restriction. */
  from: z.enum(RESTRICTION_STATUSES).nullable(),
  to: z.enum(RESTRICTION_STATUSES).nullable(),
  reason: z.enum(RESTRICTION_REASONS),
  /** The violations after the transition (the metrics concerned, or overdue_payment). */
  violations: z.array(z.enum(VIOLATION_CODES)),
  /** Unix seconds; the grace period's end when the transition starts or keeps one. */
  grace_period_end: z.number().int().nullable(),
});
export type RestrictionTransition = z.infer<typeof restrictionTransitionSchema>;

export const restrictionHistoryResponseSchema = z.object({
  /** Newest first, at most 100. */
  transitions: z.array(restrictionTransitionSchema),
});
export type RestrictionHistoryResponse = z.infer<typeof restrictionHistoryResponseSchema>;
