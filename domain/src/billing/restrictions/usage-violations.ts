import type { Violation } from '../../organization/restriction.ts';
import type { QuotaMetric } from '../quotas.ts';

/** A violation that usage beyond a quota causes: every code but the overdue payment. */
export type UsageViolation = Exclude<Violation, 'overdue_payment'>;

/**
 * The violation code of each capped metric (product-decisions §11). The variants of egress and of
 * monthly active users count as their family. Image transformations have no code in the spec: they
 * are limited by the cap but start no grace period.
 */
export const VIOLATION_OF_METRIC: Readonly<Partial<Record<QuotaMetric, UsageViolation>>> = {
  EGRESS: 'exceed_egress_quota',
  CACHED_EGRESS: 'exceed_egress_quota',
  DATABASE_SIZE: 'exceed_db_size_quota',
  STORAGE_SIZE: 'exceed_storage_size_quota',
  MONTHLY_ACTIVE_USERS: 'exceed_monthly_active_users_quota',
  MONTHLY_ACTIVE_THIRD_PARTY_USERS: 'exceed_monthly_active_users_quota',
  MONTHLY_ACTIVE_SSO_USERS: 'exceed_monthly_active_users_quota',
  FUNCTION_INVOCATIONS: 'exceed_edge_functions_invocations_quota',
  REALTIME_MESSAGE_COUNT: 'exceed_realtime_message_count_quota',
  REALTIME_PEAK_CONNECTIONS: 'exceed_realtime_connection_count_quota',
};

/** The codes of the metrics, each once, in the order of the spec's list. */
export function usageViolationsOf(metrics: readonly QuotaMetric[]): UsageViolation[] {
  const codes = new Set(metrics.flatMap((metric) => VIOLATION_OF_METRIC[metric] ?? []));
  return USAGE_VIOLATION_ORDER.filter((code) => codes.has(code));
}

export const USAGE_VIOLATION_ORDER: readonly UsageViolation[] = [
  'exceed_db_size_quota',
  'exceed_egress_quota',
  'exceed_edge_functions_count_quota',
  'exceed_edge_functions_invocations_quota',
  'exceed_monthly_active_users_quota',
  'exceed_realtime_connection_count_quota',
  'exceed_realtime_message_count_quota',
  'exceed_storage_size_quota',
];
