import {
  hasPermission,
  NO_PLAN_PERMISSION_MESSAGE,
  planChangeBlocker,
  planChangeType,
  planName,
  type BillingPlan,
  type Organization,
  type PlanId,
  type Role,
  type Subscription,
} from '@meterline/domain';

/** What a plan card's button does, and why it cannot when it cannot. */
export type PlanCardAction =
  | { kind: 'current'; label: 'Current plan' }
  | { kind: 'contact'; label: string }
  | {
      kind: 'upgrade' | 'downgrade';
      label: string;
      target: PlanId;
      /** Why the change is not possible (the tooltip of the disabled button), or null. */
      blocker: string | null;
      /** When the change would take effect, from GET /billing/plans. */
      effectiveAt: BillingPlan['effective_at'];
    };

export interface PlanCardContext {
  organization: Pick<Organization, 'slug' | 'managed_by' | 'has_oriole_project'>;
  subscription: Pick<Subscription, 'plan' | 'usage_billing_enabled' | 'billing_partner'>;
  role: Role | null;
  /** The global switch (profile.project_updates_disabled). */
  projectUpdatesDisabled: boolean;
  plans: readonly BillingPlan[];
}

/**
 * The button of the card of `target` (spec §2, §5, §6): the current plan is marked and disabled;
 * enterprise (when not current) is a contact link; otherwise "Upgrade to X" or "Downgrade to X",
 * disabled with the domain's reason (`planChangeBlocker`: the global switch, enterprise, the
 * marketplaces, OrioleDB) or, without billing write on subscriptions, the permission message.
 */
export function planCardAction(target: PlanId, context: PlanCardContext): PlanCardAction {
  const current = context.subscription.plan.id;
  if (target === current) return { kind: 'current', label: 'Current plan' };
  if (target === 'enterprise') return { kind: 'contact', label: 'Contact sales' };
  const direction = planChangeType(current, target) === 'upgrade' ? 'upgrade' : 'downgrade';
  const blocker =
    planChangeBlocker(
      {
        organization: context.organization,
        subscription: {
          plan_id: current,
          usage_billing_enabled: context.subscription.usage_billing_enabled,
          billing_partner: context.subscription.billing_partner,
        },
        projectUpdatesDisabled: context.projectUpdatesDisabled,
      },
      target,
    ) ??
    (hasPermission(context.role, 'billing_write:subscriptions')
      ? null
      : NO_PLAN_PERMISSION_MESSAGE);
  return {
    kind: direction,
    label: `${direction === 'upgrade' ? 'Upgrade' : 'Downgrade'} to ${planName(target)}`,
    target,
    blocker,
    effectiveAt: context.plans.find((plan) => plan.id === target)?.effective_at ?? 'now',
  };
}
