import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { plansList } from './plans-list.ts';
import {
  dailyUsageSchema,
  invoiceSchema,
  orgUsageSchema,
  paymentLinkSchema,
  plansListSchema,
  subscriptionSchema,
  upcomingInvoiceSchema,
} from './schemas.ts';
import { summarizeUsage } from './usage-summary.ts';

describe('billing schemas', () => {
  it('register their OpenAPI ids', () => {
    const ids = [
      upcomingInvoiceSchema,
      invoiceSchema,
      subscriptionSchema,
      plansListSchema,
      orgUsageSchema,
      dailyUsageSchema,
      paymentLinkSchema,
    ].map((schema) => z.globalRegistry.get(schema)?.id);
    expect(ids).toEqual([
      'UpcomingInvoice',
      'Invoice',
      'Subscription',
      'PlansList',
      'OrgUsage',
      'DailyUsage',
      'PaymentLink',
    ]);
  });

  it('accept what the engine produces', () => {
    expect(plansListSchema.parse(plansList('pro', 'fly')).plans).toEqual([
      {
        id: 'free',
        name: 'Free',
        price: 0,
        is_current: false,
        change_type: 'downgrade',
        effective_at: 'end_of_billing_period',
      },
      {
        id: 'pro',
        name: 'Pro',
        price: 2500,
        is_current: true,
        change_type: 'none',
        effective_at: null,
      },
      {
        id: 'team',
        name: 'Team',
        price: 59_900,
        is_current: false,
        change_type: 'upgrade',
        effective_at: 'now',
      },
      {
        id: 'enterprise',
        name: 'Enterprise',
        price: null,
        is_current: false,
        change_type: 'upgrade',
        effective_at: 'now',
      },
    ]);
    const usages = summarizeUsage('pro', true, { EGRESS: 3e11 }, []);
    expect(orgUsageSchema.parse({ usage_billing_enabled: true, usages }).usages).toHaveLength(15);
  });

  it('validate the shapes of the API', () => {
    const subscription = {
      plan: { id: 'pro', name: 'Pro' },
      usage_billing_enabled: false,
      billing_via_partner: false,
      billing_partner: null,
      payment_method_type: 'card',
      current_period_start: 1_767_225_600,
      current_period_end: 1_769_904_000,
      customer_balance: 5000,
      project_addons: [
        {
          name: 'Acme Pro Project 1',
          ref: 'acmepro1',
          addons: [
            {
              type: 'custom_domain',
              variant: {
                name: 'Custom Domain',
                identifier: 'cd_default',
                price: 1000,
                price_description: '$10.00 per month',
                price_interval: 'monthly',
                price_type: 'fixed',
              },
            },
          ],
        },
      ],
      addons: [
        {
          type: 'custom_domain',
          identifier: 'cd_default',
          name: 'Custom Domain',
          quantity: 1,
          price: 1000,
        },
      ],
      billing_cycle_anchor: 1_767_225_600,
      next_invoice_at: 1_769_904_000,
      scheduled_plan_change: null,
    };
    expect(subscriptionSchema.parse(subscription)).toEqual(subscription);
    expect(
      subscriptionSchema.safeParse({ ...subscription, billing_partner: 'azure' }).success,
    ).toBe(false);
    expect(
      invoiceSchema.safeParse({
        id: 'in_1',
        number: 'ML-0001',
        status: 'paid',
        period_start: 0,
        period_end: 1,
        amount_due: 2.5,
        subtotal: 0,
        total: 0,
        payment_attempted: true,
        invoice_pdf: '/x.pdf',
        created_at: 1,
        subscription: 'sub_1',
      }).success,
    ).toBe(false);
    expect(
      dailyUsageSchema.safeParse({ data: [{ date: '2026-01-01', metric: 'EGRESS', usage: 1 }] })
        .success,
    ).toBe(true);
    expect(
      dailyUsageSchema.safeParse({ data: [{ date: '2026-1-1', metric: 'EGRESS', usage: 1 }] })
        .success,
    ).toBe(false);
    expect(paymentLinkSchema.parse({ redirectUrl: 'https://pay.example/x' })).toEqual({
      redirectUrl: 'https://pay.example/x',
    });
  });
});
