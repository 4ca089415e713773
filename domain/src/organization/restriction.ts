export const RESTRICTION_STATUSES = ['grace_period', 'grace_period_over', 'restricted'] as const;
export type RestrictionStatus = (typeof RESTRICTION_STATUSES)[number];

export const VIOLATIONS = {
  exceed_db_size_quota: 'DB Size Exceeded',
  exceed_egress_quota: 'Egress Exceeded',
  exceed_edge_functions_count_quota: 'Edge Functions Count Exceeded',
  exceed_edge_functions_invocations_quota: 'Edge Functions Invocations Exceeded',
  exceed_monthly_active_users_quota: 'Monthly Active Users Exceeded',
  exceed_realtime_connection_count_quota: 'Realtime Connection Count Exceeded',
  exceed_realtime_message_count_quota: 'Realtime Message Count Exceeded',
  exceed_storage_size_quota: 'Storage Size Exceeded',
  overdue_payment: 'Overdue Payment',
} as const;
export type Violation = keyof typeof VIOLATIONS;
export const VIOLATION_CODES = Object.keys(VIOLATIONS) as [Violation, ...Violation[]];

export function violationName(code: Violation): string {
  return VIOLATIONS[code];
}
