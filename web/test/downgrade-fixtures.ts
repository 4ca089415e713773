import {
  PLAN_NAMES,
  subscriptionPreviewSchema,
  type PlanId,
  type Project,
  type Subscription,
  type SubscriptionPreview,
  type Tier,
} from '@meterline/domain';
import { freeLimitMembersSchema } from '../src/data/free-project-limit-members-query';
import { recordedBilling } from './billing-fixtures';
import { recorded } from './fixtures';

/**
 * Answers of the plan-change endpoints that are not on this branch yet, built to the contract
 * (plan-change-contract.ts, product-decisions §9) from the recorded demo world: the add-ons to remove
 * are acme-pro's recorded project_addons, the active projects its recorded projects. Replace them with
 * recordings once the API answers them.
 */
function previewFor({
  subscription,
  projects,
  to,
  tier,
  effectiveAt,
}: {
  subscription: Subscription;
  projects: Project[];
  to: PlanId;
  tier: Tier;
  effectiveAt: 'now' | 'end_of_billing_period';
}): SubscriptionPreview {
  const now = subscription.current_period_start + 10 * 86_400;
  return subscriptionPreviewSchema.parse({
    plan_change_type: 'downgrade',
    target_plan: { id: to, name: PLAN_NAMES[to] },
    tier,
    breakdown: [],
    total: 0,
    credit_applied: 0,
    charge_today: 0,
    balance_after: subscription.customer_balance,
    credited_to_balance: 0,
    monthly_invoice_estimate: 0,
    proration_date: now,
    effective_at: effectiveAt,
    effective_date: effectiveAt === 'now' ? now : subscription.current_period_end,
    billed_via_partner: subscription.billing_via_partner,
    number_of_projects: projects.length,
    active_projects: projects.map((project) => ({
      ref: project.ref,
      name: project.name,
      status: project.status,
      instance_size: project.compute_size,
    })),
    addons_to_remove:
      to === 'free'
        ? subscription.project_addons.map((project) => ({
            project_ref: project.ref,
            project_name: project.name,
            addons: project.addons,
          }))
        : [],
  });
}

const acmeProSubscription = recordedBilling.subscription.acmePro;
const acmeProProjects = recorded.projects.acmePro;

/** fly-co as the subscription answers it: acme-pro's shape, billed via the hosting partner. */
const flyCoSubscription: Subscription = {
  ...acmeProSubscription,
  billing_via_partner: true,
  billing_partner: 'fly',
  customer_balance: 0,
  project_addons: acmeProSubscription.project_addons.slice(0, 2).map((project, index) => ({
    ...project,
    name: `Fly Co Project ${index + 1}`,
    ref: `flyco${index + 1}`,
  })),
};

export const downgradeFixtures = {
  preview: {
    acmeProToFree: previewFor({
      subscription: acmeProSubscription,
      projects: acmeProProjects,
      to: 'free',
      tier: 'tier_free',
      effectiveAt: 'now',
    }),
    flyCoToFree: previewFor({
      subscription: flyCoSubscription,
      projects: acmeProProjects.slice(0, 2),
      to: 'free',
      tier: 'tier_free',
      effectiveAt: 'end_of_billing_period',
    }),
    acmeTeamToPro: previewFor({
      subscription: { ...acmeProSubscription, plan: { id: 'team', name: 'Team' } },
      projects: acmeProProjects,
      to: 'pro',
      tier: 'tier_payg',
      effectiveAt: 'now',
    }),
  },
  subscription: { flyCo: flyCoSubscription },
  /** crowded-co: its two members at the default limit of 2 (demo-world.md), one without a username. */
  membersAtLimit: {
    crowdedCo: freeLimitMembersSchema.parse([
      { username: 'maya', primary_email: 'maya@example.com', free_project_limit: 2 },
      { username: null, primary_email: 'theo@example.com', free_project_limit: 2 },
    ]),
  },
};
