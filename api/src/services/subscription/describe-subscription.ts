import {
  ADDON_DEFINITIONS,
  PLAN_NAMES,
  addonVariant,
  computeVariant,
  subscriptionAddons,
  type ProjectAddons,
  type Subscription,
} from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { getSubscription, listProjectAddonsNow } from '../../repositories/subscriptions.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The Subscription entity of the spec, with each project's add-ons (its compute size among them). */
export async function describeSubscription(
  db: Db,
  organizationId: string,
  at: Date,
): Promise<Subscription> {
  const [subscription, projects, addons] = await Promise.all([
    getSubscription(db, organizationId),
    db
      .selectFrom('projects')
      .select(['ref', 'name', 'compute_size'])
      .where('organization_id', '=', organizationId)
      .orderBy('ref')
      .execute(),
    listProjectAddonsNow(db, organizationId, at),
  ]);
  // The first project (in ref order, as the upcoming invoice orders them) with an add-on pays its
  // first-project price.
  const firstWith = new Map<string, string>();
  for (const project of projects) {
    for (const addon of addons.filter((a) => a.ref === project.ref)) {
      if (!firstWith.has(addon.addon)) firstWith.set(addon.addon, project.ref);
    }
  }
  const projectAddons: ProjectAddons[] = projects.map((project) => ({
    name: project.name,
    ref: project.ref,
    addons: [
      {
        type: 'compute_instance' as const,
        variant: computeVariant(subscription.plan_id, project.compute_size),
      },
      ...addons
        .filter((addon) => addon.ref === project.ref)
        .map((addon) => {
          const definition = ADDON_DEFINITIONS[addon.addon];
          return {
            type: definition.type,
            variant: addonVariant(
              definition,
              addon.variant,
              firstWith.get(addon.addon) === project.ref,
            ),
          };
        }),
    ],
  }));
  return {
    plan: { id: subscription.plan_id, name: PLAN_NAMES[subscription.plan_id] },
    usage_billing_enabled: subscription.usage_billing_enabled,
    billing_via_partner: subscription.billing_via_partner,
    billing_partner: subscription.billing_partner,
    payment_method_type: subscription.payment_method_type,
    current_period_start: seconds(subscription.current_period_start),
    current_period_end: seconds(subscription.current_period_end),
    customer_balance: subscription.customer_balance_cents,
    project_addons: projectAddons,
    addons: subscriptionAddons(projectAddons),
    billing_cycle_anchor: seconds(subscription.billing_cycle_anchor),
    next_invoice_at: seconds(subscription.current_period_end),
    scheduled_plan_change:
      subscription.scheduled_plan_id && subscription.scheduled_at
        ? {
            target_plan: subscription.scheduled_plan_id,
            at: seconds(subscription.scheduled_at),
            usage_billing_enabled: subscription.scheduled_usage_billing_enabled ?? false,
          }
        : null,
  };
}
