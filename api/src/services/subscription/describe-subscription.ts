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
import { getSubscription, listProjectsWithAddonsNow } from '../../repositories/subscriptions.ts';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The Subscription entity of the spec, with each project's add-ons (its compute size among them). */
export async function describeSubscription(
  db: Db,
  organizationId: string,
  at: Date,
): Promise<Subscription> {
  const [subscription, rows] = await Promise.all([
    getSubscription(db, organizationId),
    listProjectsWithAddonsNow(db, organizationId, at),
  ]);
  // The first project (in ref order, as the upcoming invoice orders them) with an add-on pays its
  // first-project price.
  const firstWith = new Map<string, string>();
  const projectAddons: ProjectAddons[] = [];
  let project: ProjectAddons | undefined;
  for (const row of rows) {
    if (project?.ref !== row.ref) {
      project = {
        name: row.name,
        ref: row.ref,
        addons: [
          {
            type: 'compute_instance' as const,
            variant: computeVariant(subscription.plan_id, row.compute_size),
          },
        ],
      };
      projectAddons.push(project);
    }
    if (row.addon === null || row.variant === null) continue;
    if (!firstWith.has(row.addon)) firstWith.set(row.addon, row.ref);
    const definition = ADDON_DEFINITIONS[row.addon];
    project.addons.push({
      type: definition.type,
      variant: addonVariant(definition, row.variant, firstWith.get(row.addon) === row.ref),
    });
  }
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
