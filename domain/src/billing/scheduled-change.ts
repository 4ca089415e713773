import type { Cents } from '../money/cents.ts';
import { sumCents, toCents } from '../money/cents.ts';
import type { PlanId } from '../organization/plans.ts';
import type { Cycle } from '../calendar/billing-cycle.ts';
import { BILLING_PLANS } from './billing-plans.ts';
import type { ChangeInvoiceLine } from './plan-change.ts';

export interface ScheduledChangeInput {
  to: PlanId;
  /** The current cycle: the change takes effect at its end, when the billing job closes it. */
  cycle: Cycle;
  /** The cycle after it, whose fee (in advance) the closing invoice bills at the new plan's price. */
  nextCycle: Cycle;
  /** Now: the usage lines are the cycle's so far. */
  at: number;
  /** The current cycle's usage so far, by its plan's rules (the upcoming invoice without its plan line). */
  usageLines: readonly { description: string; amount: Cents }[];
}

export interface ScheduledChangeInvoice {
  lines: ChangeInvoiceLine[];
  totalCents: Cents;
}

/**
 * What a change scheduled for the cycle's end (a hosting partner's downgrade, product-decisions §9) will
 * bill: nothing today, and at the end the invoice that closes the cycle, as it stands now: the cycle's
 * usage so far and, in advance, the new plan's fee for the next cycle (no line for Free). No time is
 * given back: the old plan is used to the end of the cycle it was paid for.
 */
export function scheduledChangeInvoice(input: ScheduledChangeInput): ScheduledChangeInvoice {
  const usagePeriod = { start: input.cycle.start, end: input.at };
  const lines: ChangeInvoiceLine[] = input.usageLines
    .filter((line) => toCents(line.amount) !== 0)
    .map((line) => ({ ...line, period: usagePeriod, kind: 'usage' as const }));
  const plan = BILLING_PLANS[input.to];
  const fee = plan.monthlyPriceCents ?? 0;
  if (fee > 0) {
    lines.push({
      description: `${plan.name} plan`,
      amount: fee,
      period: input.nextCycle,
      kind: 'plan_fee',
    });
  }
  return { lines, totalCents: sumCents(lines.map((line) => line.amount)) };
}
