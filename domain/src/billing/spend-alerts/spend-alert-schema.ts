import { z } from 'zod/mini';
import { documented } from '../../schemas/metadata.ts';

/** Thresholds an organization gets when it sets a budget without choosing (product decisions §12). */
export const DEFAULT_SPEND_ALERT_THRESHOLDS: readonly number[] = [50, 75, 90, 100];

export const SPEND_ALERT_BUDGET_MAX = 1_000_000;
export const SPEND_ALERT_THRESHOLD_MAX = 1000;
export const SPEND_ALERT_THRESHOLDS_MAX = 10;

export const BUDGET_MESSAGE = `budget must be a whole number of US dollars from 1 to ${SPEND_ALERT_BUDGET_MAX.toLocaleString('en-US')}`;
export const THRESHOLD_MESSAGE = `thresholds must be whole percentages from 1 to ${SPEND_ALERT_THRESHOLD_MAX}`;
export const THRESHOLDS_COUNT_MESSAGE = `thresholds must hold 1 to ${SPEND_ALERT_THRESHOLDS_MAX} percentages`;
export const THRESHOLDS_DISTINCT_MESSAGE = 'thresholds must not repeat a percentage';

const budget = documented(
  z
    .number({ error: BUDGET_MESSAGE })
    .check(z.int(BUDGET_MESSAGE))
    .check(z.gte(1, BUDGET_MESSAGE))
    .check(z.lte(SPEND_ALERT_BUDGET_MAX, BUDGET_MESSAGE)),
  { description: 'Monthly budget in whole US dollars' },
);

const threshold = z
  .number({ error: THRESHOLD_MESSAGE })
  .check(z.int(THRESHOLD_MESSAGE))
  .check(z.gte(1, THRESHOLD_MESSAGE))
  .check(z.lte(SPEND_ALERT_THRESHOLD_MAX, THRESHOLD_MESSAGE));

const thresholds = documented(
  z.pipe(
    z
      .array(threshold, { error: THRESHOLDS_COUNT_MESSAGE })
      .check(z.minLength(1, THRESHOLDS_COUNT_MESSAGE))
      .check(z.maxLength(SPEND_ALERT_THRESHOLDS_MAX, THRESHOLDS_COUNT_MESSAGE))
      .check(z.refine((list) => new Set(list).size === list.length, THRESHOLDS_DISTINCT_MESSAGE)),
    z.transform((list) => [...list].sort((a, b) => a - b)),
  ),
  { description: 'Percentages of the budget that send an alert, ascending' },
);

/** The budget and thresholds an owner or administrator sets (`PUT /billing/spend-alert`). */
export const spendAlertSchema = documented(
  z.object({
    budget,
    thresholds: z._default(thresholds, [...DEFAULT_SPEND_ALERT_THRESHOLDS]),
  }),
  { id: 'SpendAlertUpdate' },
);
export type SpendAlertInput = z.input<typeof spendAlertSchema>;
export type SpendAlert = z.output<typeof spendAlertSchema>;

/** What one alert recorded: a threshold (percent) crossed, or the projection passing the budget. */
export const spendAlertKeySchema = documented(
  z.union([z.number().check(z.int()), z.literal('projected')]),
  { description: "A threshold's percentage, or 'projected' (the projection passed the budget)" },
);
export type SpendAlertKey = z.infer<typeof spendAlertKeySchema>;

export const sentSpendAlertSchema = documented(
  z.object({
    alert: spendAlertKeySchema,
    spend: documented(z.number().check(z.int()), {
      description: 'Spend so far when it was sent, in cents',
    }),
    projected: documented(z.number().check(z.int()), {
      description: 'Projection when it was sent, in cents',
    }),
    budget: documented(z.number().check(z.int()), {
      description: 'The budget then, in whole US dollars',
    }),
    at: documented(z.number().check(z.int()), { description: 'Unix seconds' }),
  }),
  { id: 'SentSpendAlert' },
);

/** `GET /billing/spend-alert`: the settings, this cycle's figures and where they stand. */
export const spendAlertStateSchema = documented(
  z.object({
    budget: documented(z.nullable(z.number().check(z.int())), {
      description: 'Monthly budget in whole US dollars; null when none is set',
    }),
    thresholds: documented(z.array(z.number().check(z.int())), {
      description: 'Ascending percentages; the defaults when no budget is set',
    }),
    cycle_start: documented(z.number().check(z.int()), { description: 'Unix seconds' }),
    cycle_end: documented(z.number().check(z.int()), { description: 'Unix seconds' }),
    spend: documented(z.number().check(z.int()), {
      description: "The cycle's spend so far (upcoming invoice amount_total), cents",
    }),
    projected: documented(z.number().check(z.int()), {
      description: 'Projected to the end of the cycle (amount_projected), cents',
    }),
    reached: documented(z.array(z.number().check(z.int())), {
      description:
        'The thresholds the spend so far has reached against the current budget, ascending',
    }),
    projected_to_exceed: documented(z.boolean(), {
      description: 'The projection passes the budget while the spend so far has not reached it',
    }),
    alerts: documented(z.array(sentSpendAlertSchema), {
      description:
        'Alerts recorded this cycle, oldest first: each was sent, or was passed in the same check as a higher threshold whose one message covered it',
    }),
  }),
  { id: 'SpendAlertState' },
);
export type SpendAlertState = z.infer<typeof spendAlertStateSchema>;
