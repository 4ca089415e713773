import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { RESTRICTION_REASONS } from '../billing/restrictions/restriction-lifecycle.ts';
import { QUOTA_METRICS } from '../billing/quotas.ts';
import { RESTRICTION_STATUSES, VIOLATION_CODES } from '../organization/restriction.ts';

/**
 * One recorded change of an organization's restriction state (product-decisions §11), as its members
 * read it at `GET /platform/organizations/{slug}/billing/restriction-history`.
 */
export const restrictionHistoryEntrySchema = documented(
  z.object({
    /** Unix seconds. */
    at: z.number().check(z.int()),
    /** null: no restriction. */
    from: z.nullable(z.enum(RESTRICTION_STATUSES)),
    to: z.nullable(z.enum(RESTRICTION_STATUSES)),
    reason: z.enum(RESTRICTION_REASONS),
    /** The capped metrics above their quota that caused it; empty for the other reasons. */
    metrics: z.array(z.enum(QUOTA_METRICS)),
    /** The violations after the transition (the metrics concerned, or overdue_payment). */
    violations: z.array(z.enum(VIOLATION_CODES)),
    /** Unix seconds; the grace period's end when the transition starts or keeps one. */
    grace_period_end: z.nullable(z.number().check(z.int())),
  }),
  { id: 'RestrictionTransition' },
);
export type RestrictionHistoryEntry = z.infer<typeof restrictionHistoryEntrySchema>;

export const restrictionHistoryResponseSchema = documented(
  z.object({
    /** Newest first, at most 100. */
    transitions: z.array(restrictionHistoryEntrySchema),
  }),
  { id: 'RestrictionHistory' },
);
export type RestrictionHistoryResponse = z.infer<typeof restrictionHistoryResponseSchema>;
