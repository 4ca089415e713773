import { formatCents } from '../money/format-cents.ts';
import type { PlanId } from '../organization/plans.ts';
import type { ComputeSize } from '../organization/projects.ts';
import type { AddonDefinition } from './addons.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { COMPUTE_DEFINITIONS, computeMetricForSize } from './compute.ts';
import { unitPriceCents } from './invoice-line.ts';
import type { AddonVariant, Subscription } from './schemas.ts';
import { formatPriceDollars, priceRational } from './unit-price.ts';

/**
 * A project's compute size as a subscription variant: billed for the hours it runs at the size's
 * hourly price, except on a plan that bills no compute (Free: the free instance). The variants are a
 * table, one per plan and size, made once: the subscription read names one for every project.
 */
export function computeVariant(planId: PlanId, size: ComputeSize): AddonVariant {
  let bySize = COMPUTE_VARIANTS.get(planId);
  if (!bySize) {
    bySize = new Map();
    COMPUTE_VARIANTS.set(planId, bySize);
  }
  let variant = bySize.get(size);
  if (!variant) {
    variant = Object.freeze(describeComputeVariant(planId, size));
    bySize.set(size, variant);
  }
  return variant;
}

const COMPUTE_VARIANTS = new Map<PlanId, Map<ComputeSize, Readonly<AddonVariant>>>();

function describeComputeVariant(planId: PlanId, size: ComputeSize): AddonVariant {
  const definition = COMPUTE_DEFINITIONS[computeMetricForSize(size)];
  const billed = BILLING_PLANS[planId].billsCompute;
  return {
    name: definition.name,
    identifier: `ci_${size}`,
    price: billed ? unitPriceCents(priceRational(definition.hourlyPrice)) : 0,
    price_description: billed
      ? `${formatPriceDollars(definition.hourlyPrice)} per hour`
      : `Included in the ${BILLING_PLANS[planId].name} plan`,
    price_interval: 'hourly',
    price_type: 'usage',
  };
}

/**
 * A project add-on as a subscription variant: its monthly price, prorated by the hour. Where the first
 * project pays another price (phone MFA), `isFirstProject` says which one this project pays, as the
 * upcoming invoice prices it.
 */
export function addonVariant(
  addon: AddonDefinition,
  identifier: string,
  isFirstProject: boolean,
): AddonVariant {
  const first = addon.firstProjectMonthlyPriceCents;
  const price = isFirstProject && first !== null ? first : addon.monthlyPriceCents;
  const which = first === null ? '' : isFirstProject ? ' (first project)' : ' (further project)';
  return {
    name: addon.name,
    identifier,
    price,
    price_description: price === 0 ? 'Included' : `${formatCents(price)} per month${which}`,
    price_interval: 'monthly',
    price_type: 'fixed',
  };
}

/** The monthly add-ons of every project, one entry per variant: how many projects, what a month costs. */
export function subscriptionAddons(
  projectAddons: Subscription['project_addons'],
): Subscription['addons'] {
  const byIdentifier = new Map<string, Subscription['addons'][number]>();
  for (const project of projectAddons) {
    for (const { type, variant } of project.addons) {
      if (variant.price_interval !== 'monthly') continue;
      const entry = byIdentifier.get(variant.identifier);
      byIdentifier.set(variant.identifier, {
        type,
        identifier: variant.identifier,
        name: variant.name,
        quantity: (entry?.quantity ?? 0) + 1,
        price: (entry?.price ?? 0) + variant.price,
      });
    }
  }
  return [...byIdentifier.values()];
}
