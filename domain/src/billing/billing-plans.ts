import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import type { Cents } from '../money/cents.ts';
import { PLAN_NAMES, type PlanId } from '../organization/plans.ts';

export const TIERS = [
  'tier_free',
  'tier_pro',
  'tier_payg',
  'tier_team',
  'tier_enterprise',
] as const;
export type Tier = (typeof TIERS)[number];
export const tierSchema = documented(z.enum(TIERS), { id: 'Tier' });

/**
 * Who decides the spend cap: free is always capped, pro lets the customer choose (tier_pro with the
 * cap on, tier_payg with it off), team and enterprise always have it off.
 */
export type SpendCapPolicy = 'always_on' | 'optional' | 'always_off';

export interface PlanDefinition {
  readonly id: PlanId;
  readonly name: string;
  readonly tiers: readonly Tier[];
  /** Null for enterprise: the price is set by contract. */
  readonly monthlyPriceCents: Cents | null;
  /** Covers compute of the cycle up to this amount; null for enterprise (by contract). */
  readonly computeCreditsCents: Cents | null;
  readonly spendCap: SpendCapPolicy;
  /** Free-plan projects run on the free instance and are not billed for compute. */
  readonly billsCompute: boolean;
}

export const BILLING_PLANS: Readonly<Record<PlanId, PlanDefinition>> = {
  free: {
    id: 'free',
    name: PLAN_NAMES.free,
    tiers: ['tier_free'],
    monthlyPriceCents: 0,
    computeCreditsCents: 0,
    spendCap: 'always_on',
    billsCompute: false,
  },
  pro: {
    id: 'pro',
    name: PLAN_NAMES.pro,
    tiers: ['tier_pro', 'tier_payg'],
    monthlyPriceCents: 2500,
    computeCreditsCents: 1000,
    spendCap: 'optional',
    billsCompute: true,
  },
  team: {
    id: 'team',
    name: PLAN_NAMES.team,
    tiers: ['tier_team'],
    monthlyPriceCents: 59_900,
    computeCreditsCents: 1000,
    spendCap: 'always_off',
    billsCompute: true,
  },
  enterprise: {
    id: 'enterprise',
    name: PLAN_NAMES.enterprise,
    tiers: ['tier_enterprise'],
    monthlyPriceCents: null,
    computeCreditsCents: null,
    spendCap: 'always_off',
    billsCompute: true,
  },
};

/** False means usage beyond the quota is not billed and services are limited instead. */
export function isSpendCapOn(planId: PlanId, usageBillingEnabled: boolean): boolean {
  const policy = BILLING_PLANS[planId].spendCap;
  return policy === 'always_on' || (policy === 'optional' && !usageBillingEnabled);
}

/** The tier an organization is on; the spend cap only matters for pro. */
export function tierFor(planId: PlanId, usageBillingEnabled: boolean): Tier {
  if (planId === 'pro') return usageBillingEnabled ? 'tier_payg' : 'tier_pro';
  return `tier_${planId}`;
}

export function planIdOfTier(tier: Tier): PlanId {
  return tier === 'tier_payg' ? 'pro' : (tier.slice('tier_'.length) as PlanId);
}

/** usage_billing_enabled as a tier implies it: only tier_pro and tier_free keep the cap on. */
export function usageBillingEnabledForTier(tier: Tier): boolean {
  return tier !== 'tier_pro' && tier !== 'tier_free';
}

/** Upgrade or downgrade, by the catalogue's order of plans. */
export function planChangeType(from: PlanId, to: PlanId): 'upgrade' | 'downgrade' | 'none' {
  const order: readonly PlanId[] = ['free', 'pro', 'team', 'enterprise'];
  const diff = order.indexOf(to) - order.indexOf(from);
  return diff > 0 ? 'upgrade' : diff < 0 ? 'downgrade' : 'none';
}
