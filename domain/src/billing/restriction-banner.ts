import type { BillingPanel } from '../organization/billing-page.ts';
import type { PlanId } from '../organization/plans.ts';
import type { RestrictionStatus } from '../organization/restriction.ts';
import type { RestrictionData } from '../schemas/organization.ts';
import { isSpendCapOn } from './billing-plans.ts';
import type { UsageRecord } from './schemas.ts';
import { exceededCappedMetrics } from './usage-summary.ts';

export type RestrictionBannerKind =
  'exceededLimits' | 'gracePeriod' | 'gracePeriodOver' | 'restricted';

export interface RestrictionBannerCta {
  readonly label: 'Upgrade plan' | 'Change spend cap' | 'Disable spend cap';
  readonly panel: Extract<BillingPanel, 'subscriptionPlan' | 'costControl'>;
}

export interface RestrictionBanner {
  readonly kind: RestrictionBannerKind;
  readonly variant: 'destructive' | 'warning';
  /** Only for gracePeriod, when the organization has an end date: unix seconds. */
  readonly graceEnd?: number;
  readonly cta: RestrictionBannerCta;
}

export interface RestrictionBannerInput {
  readonly org: {
    readonly plan: { readonly id: PlanId };
    readonly restriction_status: RestrictionStatus | null;
    readonly restriction_data: RestrictionData | null;
  };
  readonly usages: readonly Pick<
    UsageRecord,
    'metric' | 'usage' | 'unlimited' | 'capped' | 'pricing_free_units'
  >[];
  /** The subscription's flag; unknown (not loaded yet) reads as "Change spend cap" on paid plans. */
  readonly usageBillingEnabled?: boolean;
}

/**
 * The call to action. Free: "Upgrade plan", which opens the plan panel (the spend cap cannot help
 * there). Paid with the spend cap on (pro): "Disable spend cap", since lifting the cap is what lets
 * the organization keep using what it exceeded. Paid otherwise (pay as you go, team, enterprise, or
 * the flag not known yet): "Change spend cap"; both open the cost-control panel, as the spec says
 * for paid plans.
 */
export function restrictionCta(
  planId: PlanId,
  usageBillingEnabled: boolean | undefined,
): RestrictionBannerCta {
  if (planId === 'free') return { label: 'Upgrade plan', panel: 'subscriptionPlan' };
  if (usageBillingEnabled !== undefined && isSpendCapOn(planId, usageBillingEnabled)) {
    return { label: 'Disable spend cap', panel: 'costControl' };
  }
  return { label: 'Change spend cap', panel: 'costControl' };
}

/** The spec's restriction banner (section 4) as a pure function of the organization and its usage. */
export function restrictionBanner(input: RestrictionBannerInput): RestrictionBanner | null {
  const { org } = input;
  const cta = restrictionCta(org.plan.id, input.usageBillingEnabled);
  if (org.restriction_status === null) {
    return exceededCappedMetrics(input.usages).length > 0
      ? { kind: 'exceededLimits', variant: 'destructive', cta }
      : null;
  }
  if (org.restriction_data === null) return null;
  switch (org.restriction_status) {
    case 'grace_period': {
      const end = org.restriction_data.grace_period_end;
      return {
        kind: 'gracePeriod',
        variant: 'warning',
        ...(end === null ? {} : { graceEnd: end }),
        cta,
      };
    }
    case 'grace_period_over':
      return { kind: 'gracePeriodOver', variant: 'warning', cta };
    case 'restricted':
      return { kind: 'restricted', variant: 'destructive', cta };
  }
}
