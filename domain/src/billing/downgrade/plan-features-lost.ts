import { PLAN_IDS, type PlanId } from '../../organization/plans.ts';

/**
 * What each plan adds to the plan below it (pricing.md's card facts), worded for a downgrade: the
 * things a customer stops having. Enterprise is arranged by contract and never downgraded here.
 */
export const PLAN_ADDITIONS: Readonly<Record<PlanId, readonly string[]>> = {
  free: [],
  pro: [
    '100,000 monthly active users included, then billed per user',
    '8 GB database per project, then billed per GB',
    '250 GB egress and 100 GB file storage included',
    '$10 of compute credits every month',
    'Projects that are never paused for inactivity',
    'Daily backups kept for 7 days',
    'Logs kept for 7 days',
    'Email support',
  ],
  team: [
    'SOC2 report, and HIPAA as a paid add-on',
    'Read-only and billing member roles',
    'Single sign-on to the dashboard',
    'Priority support with SLAs',
    'Daily backups kept for 14 days',
    'Logs kept for 28 days',
  ],
  enterprise: [
    'A designated support manager',
    'Uptime SLAs',
    '24×7×365 support in a private channel',
  ],
};

/**
 * The features that go when moving from `from` down to `to`: what every plan above `to`, up to and
 * including `from`, added, the highest plan first. Empty when `to` is not below `from`.
 */
export function featuresLostOnDowngrade(from: PlanId, to: PlanId): string[] {
  const fromIndex = PLAN_IDS.indexOf(from);
  const toIndex = PLAN_IDS.indexOf(to);
  if (toIndex >= fromIndex) return [];
  return PLAN_IDS.slice(toIndex + 1, fromIndex + 1)
    .toReversed()
    .flatMap((plan) => PLAN_ADDITIONS[plan]);
}
