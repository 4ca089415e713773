import { z } from 'zod/mini';
import { documented } from '../../schemas/metadata.ts';
import { tierSchema } from '../billing-plans.ts';

const centsSchema = documented(z.number().check(z.int()), { description: 'US cents' });
const unixSeconds = documented(z.number().check(z.int()), { description: 'unix seconds' });

export const spendCapPreviewBodySchema = documented(
  z.strictObject({
    spend_cap: documented(z.boolean({ error: 'spend_cap must be true or false' }), {
      description: 'The setting to price: true turns the cap on, false turns it off',
    }),
  }),
  { id: 'SpendCapPreviewRequest' },
);
export type SpendCapPreviewBody = z.infer<typeof spendCapPreviewBodySchema>;

/**
 * What turning the spend cap on or off would charge now (product-decisions §10), priced as the toggle
 * is charged: send `proration_date` back with `PUT /billing/subscription {tier}` within 10 minutes and
 * the toggle is charged exactly `charge_today`, to the card named here unless another is sent.
 */
export const spendCapPreviewSchema = documented(
  z.object({
    spend_cap: z.boolean(),
    tier: documented(tierSchema, { description: 'The tier to send with the change' }),
    lines: documented(
      z.array(
        z.object({
          description: z.string(),
          total_price: centsSchema,
          period_start: unixSeconds,
          period_end: unixSeconds,
        }),
      ),
      { description: 'The invoice the toggle issues: the overage accrued while the cap was off' },
    ),
    total: centsSchema,
    credit_applied: centsSchema,
    charge_today: centsSchema,
    balance_after: centsSchema,
    proration_date: documented(unixSeconds, {
      description: 'Send it back with the change: it is charged exactly this',
    }),
    billed_via_partner: z.boolean(),
    payment_method: documented(
      z.nullable(z.object({ id: z.string(), brand: z.string(), last4: z.string() })),
      {
        description: 'The default card, charged when nothing else is sent; null when there is none',
      },
    ),
  }),
  { id: 'SpendCapPreview' },
);
export type SpendCapPreview = z.infer<typeof spendCapPreviewSchema>;
