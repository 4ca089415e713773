import type { PlanId } from '../../organization/plans.ts';
import type { Violation } from '../../organization/restriction.ts';
import { isSpendCapOn } from '../billing-plans.ts';
import { billingMetricName } from '../format.ts';
import type { QuotaMetric } from '../quotas.ts';
import {
  USAGE_VIOLATION_ORDER,
  VIOLATION_OF_METRIC,
  type UsageViolation,
} from './usage-violations.ts';

/** The quota a usage violation names, as the usage page names its metric ("Egress"). */
function quotaName(code: UsageViolation): string {
  const metric = (Object.keys(VIOLATION_OF_METRIC) as QuotaMetric[]).find(
    (candidate) => VIOLATION_OF_METRIC[candidate] === code,
  );
  return metric ? billingMetricName(metric) : 'Edge Functions';
}

function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * The message of the 402 a project of a restricted organization answers: why (an overdue invoice, the
 * quotas it went over after its grace period) and what lifts it (paying the invoice; upgrading, or on
 * Pro turning the spend cap off), as product-decisions §11 decides them.
 */
export function restrictedProjectMessage(
  violations: readonly Violation[],
  plan: { planId: PlanId; usageBillingEnabled: boolean },
): string {
  const overdue = violations.includes('overdue_payment');
  const quotas = USAGE_VIOLATION_ORDER.filter((code) => violations.includes(code)).map(quotaName);
  const because = [
    ...(overdue ? ['an invoice is overdue'] : []),
    ...(quotas.length > 0
      ? [`it went over its plan’s quota (${listOf(quotas)}) after its grace period ended`]
      : []),
  ];
  if (because.length === 0) {
    return 'This project’s organization is restricted: all services are paused until its billing issues are resolved.';
  }
  const canTurnCapOff =
    plan.planId === 'pro' && isSpendCapOn(plan.planId, plan.usageBillingEnabled);
  const lifts = [
    ...(overdue ? ['pay the overdue invoice on its billing page'] : []),
    ...(quotas.length > 0
      ? [canTurnCapOff ? 'upgrade the plan or disable the spend cap' : 'upgrade to a paid plan']
      : []),
  ];
  const lift = lifts.join(', and ');
  return `This project’s organization is restricted because ${because.join(' and ')}, so all services are paused. To lift the restriction, ${lift}.`;
}
