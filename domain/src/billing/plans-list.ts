import type { BillingPartner } from '../organization/partners.ts';
import type { PlanId } from '../organization/plans.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { BILLING_PLANS, planChangeType } from './billing-plans.ts';
import { planChangeTiming } from './plan-change-rules.ts';
import type { PlansList } from './schemas.ts';

/** The GET /billing/plans answer for an organization on `current`. */
export function plansList(
  current: PlanId,
  billingPartner: BillingPartner | null = null,
): PlansList {
  return {
    plans: PLAN_IDS.map((id) => ({
      id,
      name: BILLING_PLANS[id].name,
      price: BILLING_PLANS[id].monthlyPriceCents,
      is_current: id === current,
      change_type: planChangeType(current, id),
      effective_at: id === current ? null : planChangeTiming(billingPartner, current, id),
    })),
  };
}
