import type { BillingPanel, BillingSection } from '../organization/billing-page.ts';
import type { PlanId } from '../organization/plans.ts';
import type { RestrictionStatus } from '../organization/restriction.ts';
import type { RestrictionData } from '../schemas/organization.ts';
import { isSpendCapOn } from './billing-plans.ts';
import type { UsageRecord } from './schemas.ts';
import { exceededCappedMetrics } from './usage-summary.ts';

export type RestrictionBannerKind =
  'exceededLimits' | 'gracePeriod' | 'gracePeriodOver' | 'restricted';

/** A call to action that opens a billing side panel (spec §4). */
export interface RestrictionPanelCta {
  readonly label: 'Upgrade plan' | 'Change spend cap' | 'Disable spend cap';
  readonly panel: Extract<BillingPanel, 'subscriptionPlan' | 'costControl'>;
}

/** An overdue invoice: the Pay Now flow of the organization's outstanding invoice. */
export interface RestrictionPayCta {
  readonly label: 'Pay outstanding invoice';
  readonly action: 'payOutstandingInvoice';
}

/** The card that could not pay it: the billing page's payment methods, to add another. */
export interface RestrictionCardCta {
  readonly label: 'Replace card';
  readonly section: Extract<BillingSection, 'payment-methods'>;
}

export type RestrictionBannerCta = RestrictionPanelCta | RestrictionPayCta;

export interface RestrictionBanner {
  readonly kind: RestrictionBannerKind;
  readonly variant: 'destructive' | 'warning';
  /** Only for gracePeriod, when the organization has an end date: unix seconds. */
  readonly graceEnd?: number;
  readonly cta: RestrictionBannerCta;
  /** Beside the call to action: replacing the card, when an invoice is overdue. */
  readonly secondaryCta?: RestrictionCardCta;
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
): RestrictionPanelCta {
  if (planId === 'free') return { label: 'Upgrade plan', panel: 'subscriptionPlan' };
  if (usageBillingEnabled !== undefined && isSpendCapOn(planId, usageBillingEnabled)) {
    return { label: 'Disable spend cap', panel: 'costControl' };
  }
  return { label: 'Change spend cap', panel: 'costControl' };
}

const PAY_OUTSTANDING_INVOICE: RestrictionPayCta = {
  label: 'Pay outstanding invoice',
  action: 'payOutstandingInvoice',
};
const REPLACE_CARD: RestrictionCardCta = { label: 'Replace card', section: 'payment-methods' };

/**
 * The spec's restriction banner (section 4) as a pure function of the organization and its usage.
 * An `overdue_payment` violation is lifted by paying the invoice, not by a plan or a spend cap: its
 * call to action is Pay Now for the outstanding invoice, beside replacing the card that could not pay.
 */
export function restrictionBanner(input: RestrictionBannerInput): RestrictionBanner | null {
  const { org } = input;
  if (org.restriction_status === null) {
    const cta = restrictionCta(org.plan.id, input.usageBillingEnabled);
    return exceededCappedMetrics(input.usages).length > 0
      ? { kind: 'exceededLimits', variant: 'destructive', cta }
      : null;
  }
  if (org.restriction_data === null) return null;
  const ctas = org.restriction_data.violations.includes('overdue_payment')
    ? { cta: PAY_OUTSTANDING_INVOICE, secondaryCta: REPLACE_CARD }
    : { cta: restrictionCta(org.plan.id, input.usageBillingEnabled) };
  switch (org.restriction_status) {
    case 'grace_period': {
      const end = org.restriction_data.grace_period_end;
      return {
        kind: 'gracePeriod',
        variant: 'warning',
        ...(end === null ? {} : { graceEnd: end }),
        ...ctas,
      };
    }
    case 'grace_period_over':
      return { kind: 'gracePeriodOver', variant: 'warning', ...ctas };
    case 'restricted':
      return { kind: 'restricted', variant: 'destructive', ...ctas };
  }
}
