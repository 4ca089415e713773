import type { Cents } from '../money/cents.ts';
import { formatCents } from '../money/format-cents.ts';
import type { PlanId } from '../organization/plans.ts';
import { PLAN_IDS } from '../organization/plans.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import { QUOTA_DEFINITIONS, type QuotaMetric } from './quotas.ts';
import { formatPriceDollars } from './unit-price.ts';

/** A card's feature: one line, or a main line with a smaller line under it. */
export type PlanFeature = string | readonly [main: string, subtext: string];

/**
 * The client-side metadata of a plan card (spec §3, "Plans list"): what the plan side panel shows. Prices
 * come from `BILLING_PLANS` and the overage prices from `QUOTA_DEFINITIONS`; the wording is Meterline's.
 */
export interface PlanCard {
  readonly id: `tier_${PlanId}`;
  readonly planId: PlanId;
  readonly name: string;
  /** Monthly price in cents; null when set by contract (enterprise). */
  readonly priceMonthly: Cents | null;
  readonly costUnit: string;
  /** A short line above the features ("Everything in Free, and"). */
  readonly featuresIntro: string | null;
  readonly features: readonly PlanFeature[];
  readonly footer: string | null;
  /** The action of a card that is not a plan change (enterprise: a contact link). */
  readonly cta: string | null;
  readonly href: string | null;
  readonly nameBadge: string | null;
}

/** Where the enterprise card's contact link leads. */
export const ENTERPRISE_CONTACT_HREF =
  'mailto:sales@meterline.example?subject=Meterline%20Enterprise';

const GB = 1_000_000_000;

function overage(metric: QuotaMetric): string {
  const definition = QUOTA_DEFINITIONS[metric];
  const price = formatPriceDollars(definition.price, definition.priceUnit.units) ?? '';
  return `then ${price} ${definition.priceUnit.label}`;
}

function paidIncluded(metric: QuotaMetric): number {
  return QUOTA_DEFINITIONS[metric].paid?.included ?? 0;
}

function freeIncluded(metric: QuotaMetric): number {
  return QUOTA_DEFINITIONS[metric].free?.included ?? 0;
}

const count = (value: number) => value.toLocaleString('en-US');
const size = (bytes: number) => (bytes >= GB ? `${bytes / GB} GB` : `${(bytes / GB) * 1000} MB`);

export const PLAN_CARDS: Readonly<Record<PlanId, PlanCard>> = {
  free: {
    id: 'tier_free',
    planId: 'free',
    name: BILLING_PLANS.free.name,
    priceMonthly: BILLING_PLANS.free.monthlyPriceCents,
    costUnit: '/ month / org',
    featuresIntro: 'To try ideas and build side projects',
    features: [
      'Unlimited API requests',
      `${count(freeIncluded('MONTHLY_ACTIVE_USERS'))} monthly active users`,
      [`${size(freeIncluded('DATABASE_SIZE'))} database`, 'Shared CPU, 1 GB RAM'],
      `${size(freeIncluded('EGRESS'))} egress`,
      `${size(freeIncluded('STORAGE_SIZE'))} file storage`,
      'Community support',
    ],
    footer: 'Projects pause after 1 week without activity. At most 2 active projects.',
    cta: null,
    href: null,
    nameBadge: null,
  },
  pro: {
    id: 'tier_pro',
    planId: 'pro',
    name: BILLING_PLANS.pro.name,
    priceMonthly: BILLING_PLANS.pro.monthlyPriceCents,
    costUnit: '/ month / org',
    featuresIntro: 'Everything in Free, and',
    features: [
      [
        `${count(paidIncluded('MONTHLY_ACTIVE_USERS'))} monthly active users`,
        overage('MONTHLY_ACTIVE_USERS'),
      ],
      [`${size(paidIncluded('DATABASE_SIZE'))} database`, overage('DATABASE_SIZE')],
      [`${size(paidIncluded('EGRESS'))} egress`, overage('EGRESS')],
      [`${size(paidIncluded('STORAGE_SIZE'))} file storage`, overage('STORAGE_SIZE')],
      'Email support',
      'Daily backups, kept for 7 days',
      'Logs kept for 7 days',
    ],
    footer: 'The spend cap decides whether usage beyond the included quota is billed or limited.',
    cta: null,
    href: null,
    nameBadge: 'Most popular',
  },
  team: {
    id: 'tier_team',
    planId: 'team',
    name: BILLING_PLANS.team.name,
    priceMonthly: BILLING_PLANS.team.monthlyPriceCents,
    costUnit: '/ month / org',
    featuresIntro: 'Everything in Pro, and',
    features: [
      'SOC2',
      ['HIPAA', 'Available as a paid add-on'],
      'Read-only and billing member roles',
      'SSO for the dashboard',
      ['Priority support', 'With SLAs'],
      'Daily backups, kept for 14 days',
      'Logs kept for 28 days',
    ],
    footer: null,
    cta: null,
    href: null,
    nameBadge: null,
  },
  enterprise: {
    id: 'tier_enterprise',
    planId: 'enterprise',
    name: BILLING_PLANS.enterprise.name,
    priceMonthly: BILLING_PLANS.enterprise.monthlyPriceCents,
    costUnit: 'by contract',
    featuresIntro: 'For large-scale applications',
    features: [
      'A designated support manager',
      'Uptime SLAs',
      'On-premise support',
      '24×7×365 support',
      'A private support channel',
      'Custom security questionnaires',
    ],
    footer: null,
    cta: 'Contact sales',
    href: ENTERPRISE_CONTACT_HREF,
    nameBadge: null,
  },
};

/** The cards in the panel's order: free, pro, team, enterprise. */
export function planCards(): PlanCard[] {
  return PLAN_IDS.map((id) => PLAN_CARDS[id]);
}

/** "From $25" above 0, "$0" for free, "Custom" when set by contract (pricing.md). */
export function planCardPrice(card: Pick<PlanCard, 'priceMonthly'>): string {
  if (card.priceMonthly === null) return 'Custom';
  if (card.priceMonthly === 0) return formatWhole(0);
  return `From ${formatWhole(card.priceMonthly)}`;
}

/** "$25", "$599": whole dollars without cents, else the usual "$12.50". */
function formatWhole(cents: Cents): string {
  const full = formatCents(cents);
  return full.endsWith('.00') ? full.slice(0, -3) : full;
}

/** The features an upgrade to `to` adds (the upgrade dialog's "features gained"). */
export function featuresGained(to: PlanId): readonly PlanFeature[] {
  return PLAN_CARDS[to].features;
}

/** The main line of a feature. */
export function featureText(feature: PlanFeature): string {
  return typeof feature === 'string' ? feature : feature[0];
}
