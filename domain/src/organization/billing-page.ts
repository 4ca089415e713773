import type { Permission } from '../permissions/index.ts';
import { isFeatureEnabled, type Feature } from './features.ts';
import type { PlanId } from './plans.ts';

export const BILLING_SECTIONS = [
  'subscription',
  'cost-control',
  'spend-alerts',
  'breakdown',
  'invoices',
  'payment-methods',
  'credits-balance',
  'email',
  'address',
] as const;
export type BillingSection = (typeof BILLING_SECTIONS)[number];

/** The permission each section needs before it may show its content. */
export const SECTION_READ_PERMISSION: Record<BillingSection, Permission> = {
  subscription: 'billing_read:subscriptions',
  'cost-control': 'billing_read:subscriptions',
  'spend-alerts': 'billing_read:subscriptions',
  breakdown: 'billing_read:subscriptions',
  invoices: 'billing_read:subscriptions',
  'payment-methods': 'billing_read:payment_methods',
  'credits-balance': 'billing_read:subscriptions',
  email: 'billing_read:subscriptions',
  address: 'billing_read:customer',
};

export const BILLING_PANELS = ['subscriptionPlan', 'costControl'] as const;
export type BillingPanel = (typeof BILLING_PANELS)[number];

export const BILLING_SOURCES = [
  'fairUseGracePeriodStarted',
  'fairUseGracePeriodOver',
  'fairUseRestricted',
] as const;
export type BillingSource = (typeof BILLING_SOURCES)[number];

export function parseBillingPanel(value: string | null | undefined): BillingPanel | null {
  return (BILLING_PANELS as readonly string[]).includes(value ?? '')
    ? (value as BillingPanel)
    : null;
}

export function parseBillingSource(value: string | null | undefined): BillingSource | null {
  return (BILLING_SOURCES as readonly string[]).includes(value ?? '')
    ? (value as BillingSource)
    : null;
}

export interface BillingPageContext {
  disabledFeatures: readonly Feature[];
  planId: PlanId;
  billedViaPartner: boolean;
}

/**
 * The sections of the billing page, in the spec's order, that this organization shows. An empty list
 * means the billing feature set is off, and the page shows a back link instead.
 */
export function visibleBillingSections(context: BillingPageContext): BillingSection[] {
  const on = (feature: Feature) => isFeatureEnabled(context.disabledFeatures, feature);
  if (!on('billing')) return [];
  return BILLING_SECTIONS.filter((section) => {
    switch (section) {
      case 'subscription':
      case 'cost-control':
        return true;
      // A Free organization spends nothing: no budget to watch, no upcoming invoice to break down.
      case 'spend-alerts':
      case 'breakdown':
        return context.planId !== 'free';
      case 'invoices':
        return on('invoices');
      case 'payment-methods':
        return on('payment_methods') && !context.billedViaPartner;
      case 'credits-balance':
        return on('credits');
      case 'email':
      case 'address':
        return on('billing_account_data') && !context.billedViaPartner;
    }
  });
}
