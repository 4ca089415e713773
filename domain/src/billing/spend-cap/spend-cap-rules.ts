import type { BillingPartner, ManagedBy } from '../../organization/partners.ts';
import { effectiveManagedBy } from '../../organization/partners.ts';
import type { PlanId } from '../../organization/plans.ts';
import { isSpendCapOn, planIdOfTier, type Tier } from '../billing-plans.ts';
import { CHANGES_DISABLED_MESSAGE, SAME_PLAN_MESSAGE } from '../plan-change-rules.ts';

/** The spec's words (§5) for a toggle on any plan but Pro: the confirm's tooltip and the server's 409. */
export const SPEND_CAP_PRO_ONLY_MESSAGE =
  'Toggling of the spend cap is only available on the Pro Plan';
/** The spec's words (§6) for a member without billing write on subscriptions. */
export const NO_SPEND_CAP_PERMISSION_MESSAGE = 'You do not have permission to update spend cap';
export const SPEND_CAP_MARKETPLACE_MESSAGE =
  'The spend cap is not available for organizations billed through AWS Marketplace.';
export const SPEND_CAP_ALWAYS_OFF_MESSAGE =
  'Team and Enterprise plans bill usage beyond the included quota: their spend cap is always off.';

/** The spec's toasts (§8). */
export function spendCapToggledMessage(capOn: boolean): string {
  return `Successfully ${capOn ? 'enabled' : 'disabled'} spend cap`;
}
export function spendCapToggleFailedMessage(message: string): string {
  return `Failed to toggle spend cap: ${message}`;
}

/** What decides whether the spend cap may be toggled. */
export interface SpendCapContext {
  readonly organization: { readonly slug: string; readonly managed_by: ManagedBy };
  readonly subscription: {
    readonly plan_id: PlanId;
    readonly usage_billing_enabled: boolean;
    readonly billing_partner: BillingPartner | null;
  };
  /** DISABLE_PROJECT_CREATION_AND_UPDATES. */
  readonly projectUpdatesDisabled: boolean;
  /** Billing write on subscriptions. */
  readonly canUpdateSubscription: boolean;
}

function isAwsMarketplace(context: SpendCapContext): boolean {
  return (
    effectiveManagedBy(context.organization) === 'aws-marketplace' ||
    context.subscription.billing_partner === 'aws'
  );
}

/**
 * Why "Change spend cap" is disabled (spec §5: the global switch, team and enterprise, which keep
 * the cap off; the cloud-provider marketplace, where the cap is unavailable), or null. Free may open
 * the panel: it shows the cap and its confirm says why it cannot change.
 */
export function spendCapBlocker(context: SpendCapContext): string | null {
  if (context.projectUpdatesDisabled) return CHANGES_DISABLED_MESSAGE;
  if (isAwsMarketplace(context)) return SPEND_CAP_MARKETPLACE_MESSAGE;
  const plan = context.subscription.plan_id;
  if (plan === 'team' || plan === 'enterprise') return SPEND_CAP_ALWAYS_OFF_MESSAGE;
  return null;
}

export type SpendCapConfirmBlock =
  | { readonly reason: 'loading' | 'unchanged'; readonly message: null }
  | {
      readonly reason: 'not_pro' | 'no_permission' | 'changes_disabled' | 'aws_marketplace';
      readonly message: string;
    };

/**
 * Why the panel's confirm is disabled (spec §5: free, loading, the draft unchanged, no permission;
 * and whatever the server would refuse), or null. Loading and an unchanged draft need no tooltip.
 */
export function spendCapConfirmBlocker(
  context: SpendCapContext,
  draftCapOn: boolean,
  loading: boolean,
): SpendCapConfirmBlock | null {
  if (loading) return { reason: 'loading', message: null };
  const refusal = spendCapRefusal(context, draftCapOn);
  if (refusal === null) return null;
  return refusal.reason === 'unchanged'
    ? { reason: 'unchanged', message: null }
    : { reason: refusal.reason, message: refusal.message };
}

export interface SpendCapRefusal {
  readonly status: 403 | 409;
  readonly reason:
    'no_permission' | 'changes_disabled' | 'aws_marketplace' | 'not_pro' | 'unchanged';
  readonly message: string;
}

/**
 * The server's refusal of turning the cap on or off (product-decisions §10), or null when the toggle
 * may go ahead: 403 without billing write on subscriptions; 409 under the global switch, for an AWS
 * Marketplace organization, on any plan but Pro, and for the state the cap is already in (the tier the
 * organization is on, §9's "already on this plan").
 */
export function spendCapRefusal(
  context: SpendCapContext,
  targetCapOn: boolean,
): SpendCapRefusal | null {
  if (!context.canUpdateSubscription) {
    return { status: 403, reason: 'no_permission', message: NO_SPEND_CAP_PERMISSION_MESSAGE };
  }
  if (context.projectUpdatesDisabled) {
    return { status: 409, reason: 'changes_disabled', message: CHANGES_DISABLED_MESSAGE };
  }
  if (isAwsMarketplace(context)) {
    return { status: 409, reason: 'aws_marketplace', message: SPEND_CAP_MARKETPLACE_MESSAGE };
  }
  const { plan_id: plan, usage_billing_enabled: usageBillingEnabled } = context.subscription;
  if (plan !== 'pro') {
    return { status: 409, reason: 'not_pro', message: SPEND_CAP_PRO_ONLY_MESSAGE };
  }
  if (isSpendCapOn(plan, usageBillingEnabled) === targetCapOn) {
    return { status: 409, reason: 'unchanged', message: SAME_PLAN_MESSAGE };
  }
  return null;
}

/**
 * Whether `PUT /billing/subscription` with `tier` is a spend-cap toggle (Pro to Pro with the other
 * setting, §9) and in which direction, or Free asking for the pay-as-you-go tier (refused: Pro only);
 * null when it is a plan change or no change. A toggle goes
 * through `spendCapRefusal` and the spend-cap engine, never through the plan change.
 */
export function spendCapToggleOf(
  current: { readonly plan_id: PlanId; readonly usage_billing_enabled: boolean },
  tier: Tier,
): { readonly capOn: boolean } | null {
  if (planIdOfTier(tier) !== 'pro') return null;
  // Free asking for the pay-as-you-go tier asks to turn the cap off, which only Pro may (an upgrade
  // from Free is the Pro tier, with the cap on).
  if (current.plan_id === 'free' && tier === 'tier_payg') return { capOn: false };
  if (current.plan_id !== 'pro') return null;
  const capOn = tier === 'tier_pro';
  return isSpendCapOn('pro', current.usage_billing_enabled) === capOn ? null : { capOn };
}
