import type { ManagedBy, BillingPartner } from '../organization/partners.ts';
import { effectiveManagedBy } from '../organization/partners.ts';
import type { PlanId } from '../organization/plans.ts';
import { PLAN_NAMES } from '../organization/plans.ts';
import {
  planChangeType,
  type Tier,
  planIdOfTier,
  usageBillingEnabledForTier,
} from './billing-plans.ts';

/** The spec's words for the global switch (§6), shown as a tooltip and answered by the server. */
export const CHANGES_DISABLED_MESSAGE =
  'Subscription changes are currently disabled. Our engineers are working on a fix.';
export const NO_PLAN_PERMISSION_MESSAGE =
  'You do not have permission to change the subscription plan';
export const ENTERPRISE_PLAN_MESSAGE =
  'Enterprise plans are changed with your account team. Contact them to make a change.';
export const ENTERPRISE_NOT_SELF_SERVE_MESSAGE =
  'The Enterprise plan is arranged with our sales team: contact us to move to it.';
export const SAME_PLAN_MESSAGE = 'The organization is already on this plan';
export const AWS_MARKETPLACE_MESSAGE =
  'This organization is billed through AWS Marketplace: its plan is changed there.';
export const VERCEL_MARKETPLACE_MESSAGE =
  'This organization is managed through the Vercel Marketplace: its plan is changed there, except a downgrade to the Free plan.';
export const ORIOLE_PROJECT_MESSAGE =
  'This organization has an OrioleDB project, which cannot change plan yet. Remove the OrioleDB project first.';
export const SPEND_CAP_CHANGE_MESSAGE =
  'Pro with the spend cap on or off is the same plan: change the spend cap from the spend cap panel.';
export const PAYMENT_METHOD_REQUIRED_MESSAGE = 'A payment method is required';
export const CHANGE_IN_PROGRESS_MESSAGE =
  'Another change of this subscription is in progress. Wait for it to finish, then try again.';
export const PRORATION_DATE_STALE_MESSAGE =
  'proration_date: the preview is more than 10 minutes old or not from the current billing cycle. Preview the change again.';

/** A preview's proration_date may be sent back with the change for at most this long. */
export const PRORATION_DATE_MAX_AGE_SECONDS = 10 * 60;
/** A change waiting for 3-D Secure expires after this long; nothing is changed then. */
export const PENDING_CHANGE_TTL_SECONDS = 60 * 60;

export function membersAtFreeLimitMessage(members: readonly string[]): string {
  const who = members.join(', ');
  return `These members have reached their free project limit and must pause or delete free projects first: ${who}`;
}

/** What decides whether, and when, an organization may change plan. */
export interface PlanChangeContext {
  organization: { slug: string; managed_by: ManagedBy; has_oriole_project: boolean };
  subscription: {
    plan_id: PlanId;
    usage_billing_enabled: boolean;
    billing_partner: BillingPartner | null;
  };
  /** DISABLE_PROJECT_CREATION_AND_UPDATES. */
  projectUpdatesDisabled: boolean;
}

export interface PlanChangeRefusal {
  status: 400 | 403 | 409;
  message: string;
}

/**
 * Why a plan button is disabled, before any target is chosen (spec §5: enterprise, the partner rules,
 * OrioleDB, the global switch); `target` lets the Vercel rule allow the downgrade to Free. The same
 * words the server answers with, so the tooltip and the refusal never disagree.
 */
export function planChangeBlocker(context: PlanChangeContext, target?: PlanId): string | null {
  if (context.projectUpdatesDisabled) return CHANGES_DISABLED_MESSAGE;
  if (context.subscription.plan_id === 'enterprise') return ENTERPRISE_PLAN_MESSAGE;
  const managedBy = effectiveManagedBy(context.organization);
  if (managedBy === 'aws-marketplace' || context.subscription.billing_partner === 'aws') {
    return AWS_MARKETPLACE_MESSAGE;
  }
  if (managedBy === 'vercel-marketplace' && target !== 'free') return VERCEL_MARKETPLACE_MESSAGE;
  if (context.organization.has_oriole_project) return ORIOLE_PROJECT_MESSAGE;
  return null;
}

/**
 * The server's refusal of a change to `tier` (product-decisions §9), or null when it may go ahead.
 * Permission (403) and the free project limit (which needs the members) are checked by the caller.
 */
export function planChangeRefusal(
  context: PlanChangeContext,
  tier: Tier,
): PlanChangeRefusal | null {
  const target = planIdOfTier(tier);
  const blocker = planChangeBlocker(context, target);
  if (blocker) return { status: 409, message: blocker };
  const current = context.subscription;
  if (target === 'enterprise') return { status: 409, message: ENTERPRISE_NOT_SELF_SERVE_MESSAGE };
  if (target === current.plan_id) {
    const sameCap = usageBillingEnabledForTier(tier) === current.usage_billing_enabled;
    return {
      status: 409,
      message: target === 'pro' && !sameCap ? SPEND_CAP_CHANGE_MESSAGE : SAME_PLAN_MESSAGE,
    };
  }
  return null;
}

/** When a change takes effect: a hosting-partner (fly) downgrade waits for the cycle's end. */
export function planChangeTiming(
  billingPartner: BillingPartner | null,
  from: PlanId,
  to: PlanId,
): 'now' | 'end_of_billing_period' {
  return billingPartner === 'fly' && planChangeType(from, to) === 'downgrade'
    ? 'end_of_billing_period'
    : 'now';
}

/** The plan's display name, for "Upgrade to X" and the success toasts. */
export function planName(plan: PlanId): string {
  return PLAN_NAMES[plan];
}
