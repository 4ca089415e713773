import { z } from 'zod';

/** Thresholds an organization gets when it sets a budget without choosing (product decisions §12). */
export const DEFAULT_SPEND_ALERT_THRESHOLDS: readonly number[] = [50, 75, 90, 100];

export const SPEND_ALERT_BUDGET_MAX = 1_000_000;
export const SPEND_ALERT_THRESHOLD_MAX = 1000;
export const SPEND_ALERT_THRESHOLDS_MAX = 10;

export const BUDGET_MESSAGE = `budget must be a whole number of US dollars from 1 to ${SPEND_ALERT_BUDGET_MAX.toLocaleString('en-US')}`;
export const THRESHOLD_MESSAGE = `thresholds must be whole percentages from 1 to ${SPEND_ALERT_THRESHOLD_MAX}`;
export const THRESHOLDS_COUNT_MESSAGE = `thresholds must hold 1 to ${SPEND_ALERT_THRESHOLDS_MAX} percentages`;
export const THRESHOLDS_DISTINCT_MESSAGE = 'thresholds must not repeat a percentage';

const budget = z
  .number({ error: BUDGET_MESSAGE })
  .int(BUDGET_MESSAGE)
  .min(1, BUDGET_MESSAGE)
  .max(SPEND_ALERT_BUDGET_MAX, BUDGET_MESSAGE)
  .describe('Monthly budget in whole US dollars');

const threshold = z
  .number({ error: THRESHOLD_MESSAGE })
  .int(THRESHOLD_MESSAGE)
  .min(1, THRESHOLD_MESSAGE)
  .max(SPEND_ALERT_THRESHOLD_MAX, THRESHOLD_MESSAGE);

const thresholds = z
  .array(threshold, { error: THRESHOLDS_COUNT_MESSAGE })
  .min(1, THRESHOLDS_COUNT_MESSAGE)
  .max(SPEND_ALERT_THRESHOLDS_MAX, THRESHOLDS_COUNT_MESSAGE)
  .refine((list) => new Set(list).size === list.length, THRESHOLDS_DISTINCT_MESSAGE)
  // Stored and answered in ascending order, whatever order they came in.
  .transform((list) => [...list].sort((a, b) => a - b))
  .describe('Percentages of the budget that send an alert, ascending');

/** The budget and thresholds an owner or administrator sets (`PUT /billing/spend-alert`). */
export const spendAlertSchema = z
  .object({
    budget,
    thresholds: thresholds.default([...DEFAULT_SPEND_ALERT_THRESHOLDS]),
  })
  .meta({ id: 'SpendAlertUpdate' });
export type SpendAlertInput = z.input<typeof spendAlertSchema>;
export type SpendAlert = z.output<typeof spendAlertSchema>;

/** What one alert recorded: a threshold (percent) crossed, or the projection passing the budget. */
export const spendAlertKeySchema = z
  .union([z.number().int(), z.literal('projected')])
  .describe("A threshold's percentage, or 'projected' (the projection passed the budget)");
export type SpendAlertKey = z.infer<typeof spendAlertKeySchema>;

export const sentSpendAlertSchema = z
  .object({
    alert: spendAlertKeySchema,
    spend: z.number().int().describe('Spend so far when it was sent, in cents'),
    projected: z.number().int().describe('Projection when it was sent, in cents'),
    budget: z.number().int().describe('The budget then, in whole US dollars'),
    at: z.number().int().describe('Unix seconds'),
  })
  .meta({ id: 'SentSpendAlert' });

/** `GET /billing/spend-alert`: the settings, this cycle's figures and where they stand. */
export const spendAlertStateSchema = z
  .object({
    budget: z
      .number()
      .int()
      .nullable()
      .describe('Monthly budget in whole US dollars; null when none is set'),
    thresholds: z
      .array(z.number().int())
      .describe('Ascending percentages; the defaults when no budget is set'),
    cycle_start: z.number().int().describe('Unix seconds'),
    cycle_end: z.number().int().describe('Unix seconds'),
    spend: z
      .number()
      .int()
      .describe("The cycle's spend so far (upcoming invoice amount_total), cents"),
    projected: z
      .number()
      .int()
      .describe('Projected to the end of the cycle (amount_projected), cents'),
    reached: z
      .array(z.number().int())
      .describe(
        'The thresholds the spend so far has reached against the current budget, ascending',
      ),
    projected_to_exceed: z
      .boolean()
      .describe('The projection passes the budget while the spend so far has not reached it'),
    alerts: z.array(sentSpendAlertSchema).describe('Alerts sent this cycle, oldest first'),
  })
  .meta({ id: 'SpendAlertState' });
export type SpendAlertState = z.infer<typeof spendAlertStateSchema>;
