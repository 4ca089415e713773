import type { Cents } from '../money/cents.ts';
import { sumCents, toCents } from '../money/cents.ts';
import type { PlanId } from '../organization/plans.ts';
import { addMonthsClamped, type Cycle } from '../calendar/billing-cycle.ts';
import { BILLING_PLANS, planChangeType } from './billing-plans.ts';
import { unusedCredit } from './proration.ts';
import { formatCents } from '../money/format-cents.ts';
import * as Q from '../money/rational.ts';
import { invoiceLine } from './invoice-line.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';

/** One line of the invoice a plan change issues (product-decisions §9). */
export interface ChangeInvoiceLine {
  description: string;
  amount: Cents;
  /** The half-open period, in unix seconds, the line pays for (or gives back). */
  period: Cycle;
  kind: 'usage' | 'unused_time' | 'plan_fee';
}

export interface PlanChangeInput {
  from: PlanId;
  to: PlanId;
  /** The cycle being ended by the change, unix seconds. */
  cycle: Cycle;
  /** The moment of the change, inside the cycle. */
  at: number;
  /**
   * The ending cycle's usage up to `at`, priced by the old plan's rules: what the upcoming invoice
   * showed at `at`, without its plan line (amounts in cents, one line each).
   */
  usageLines: readonly { description: string; amount: Cents }[];
  /** The credit balance: positive is credit owed to the customer. */
  balanceCents: Cents;
}

export interface ChangeInvoice {
  direction: 'upgrade' | 'downgrade';
  lines: ChangeInvoiceLine[];
  /** Σ lines: may be negative (a downgrade's unused time worth more than the new fee). */
  totalCents: Cents;
  /** The part of the balance used to pay the invoice. */
  creditAppliedCents: Cents;
  /** What the card is charged today: max(0, total − balance). */
  chargeTodayCents: Cents;
  /** The balance once the change is paid: never negative; a negative total is added to it. */
  balanceAfterCents: Cents;
  /** The new cycle the change starts: the billing anchor moves to the moment of the change. */
  newCycle: Cycle;
  /** The cycle the change ends, as it was before the change (its end is where it would have ended). */
  endedCycle: Cycle;
}

export class PlanChangeError extends Error {}

function priceOf(plan: PlanId): Cents {
  const price = BILLING_PLANS[plan].monthlyPriceCents;
  if (price === null) throw new PlanChangeError('Enterprise is not self-serve');
  return price;
}

/**
 * The invoice an immediate plan change issues at `at` (product-decisions §9): the ending cycle's usage so
 * far by the old plan's rules, minus the old plan's fee for the unused time ((end − at) / (end − start),
 * in seconds, rounded half up once), plus the new plan's fee for the new cycle that starts at `at`. The
 * balance pays first; what it does not cover is charged today; a negative total is credited to the
 * balance, never refunded to a card. With no usage so far, the charge is exactly the spec's formula:
 * max(0, new price − prorated unused amount − balance).
 */
export function changeInvoice(input: PlanChangeInput): ChangeInvoice {
  const { from, to, cycle, at } = input;
  const direction = planChangeType(from, to);
  if (direction === 'none') throw new PlanChangeError('The organization is already on this plan');
  if (!(cycle.start <= at && at < cycle.end)) {
    throw new PlanChangeError('The change must happen inside the current cycle');
  }
  const balance = toCents(input.balanceCents);
  const oldName = BILLING_PLANS[from].name;
  const newName = BILLING_PLANS[to].name;
  const newCycle = { start: at, end: addMonthsClamped(at, 1) };
  const usagePeriod = { start: cycle.start, end: at };
  const lines: ChangeInvoiceLine[] = input.usageLines
    .filter((line) => toCents(line.amount) !== 0)
    .map((line) => ({ ...line, period: usagePeriod, kind: 'usage' as const }));
  const unused = unusedCredit(priceOf(from), cycle.start, cycle.end, at);
  if (unused > 0) {
    lines.push({
      description: `Unused time on ${oldName} plan`,
      amount: -unused,
      period: { start: at, end: cycle.end },
      kind: 'unused_time',
    });
  }
  const fee = priceOf(to);
  if (fee > 0) {
    lines.push({ description: `${newName} plan`, amount: fee, period: newCycle, kind: 'plan_fee' });
  }
  const total = sumCents(lines.map((line) => line.amount));
  const available = Math.max(0, balance);
  const creditApplied = Math.min(available, Math.max(0, total));
  const chargeToday = Math.max(0, total - creditApplied);
  const balanceAfter = balance - creditApplied + (total < 0 ? -total : 0);
  return {
    direction,
    lines,
    totalCents: total,
    creditAppliedCents: creditApplied,
    chargeTodayCents: chargeToday,
    balanceAfterCents: balanceAfter,
    newCycle,
    endedCycle: cycle,
  };
}

/**
 * The first full cycle on the new plan with today's projects and add-ons and no overage: the plan's fee
 * plus the monthly compute and add-ons beyond its compute credits (product-decisions §9).
 */
export function monthlyInvoiceEstimate(
  to: PlanId,
  monthlyComputeCents: Cents,
  monthlyAddonsCents: Cents,
): Cents {
  const plan = BILLING_PLANS[to];
  const fee = priceOf(to);
  if (!plan.billsCompute) return fee;
  const credits = plan.computeCreditsCents ?? 0;
  return fee + Math.max(0, toCents(monthlyComputeCents) - credits) + toCents(monthlyAddonsCents);
}

/**
 * The change invoice's lines as an invoice records them: the usage lines as the upcoming invoice priced
 * them, then the unused time and the new plan's fee, each with how it was priced.
 */
export function changeInvoiceRecordLines(
  invoice: ChangeInvoice,
  usageLines: readonly UpcomingInvoiceLine[],
  oldPriceCents: Cents,
): UpcomingInvoiceLine[] {
  const usage = usageLines.filter((line) => toCents(line.amount) !== 0);
  const rest = invoice.lines
    .filter((line) => line.kind !== 'usage')
    .map((line) =>
      invoiceLine({
        description: line.description,
        amount: line.amount,
        unitPriceDesc:
          line.kind === 'unused_time'
            ? `${formatCents(oldPriceCents)} per month × ${remainingShare(line.period, invoice)}`
            : `${formatCents(line.amount)} per month`,
        usageMetric: null,
        usageOriginal: null,
        ...(line.kind === 'unused_time'
          ? {
              // The old plan's monthly fee given back for the unused share of the ending cycle.
              proration: true,
              quantity: Q.rational(
                line.period.end - line.period.start,
                invoice.endedCycle.end - invoice.endedCycle.start,
              ),
              unitPrice: Q.rational(-oldPriceCents),
            }
          : { quantity: Q.rational(1), unitPrice: Q.rational(line.amount) }),
      }),
    );
  return [...usage, ...rest];
}

/** "12d 4h of 30d 0h": the unused part of the ending cycle, as the proration counted it. */
function remainingShare(period: Cycle, invoice: ChangeInvoice): string {
  const span = (seconds: number) =>
    `${Math.floor(seconds / 86_400)}d ${Math.floor((seconds % 86_400) / 3600)}h`;
  const total = invoice.endedCycle.end - invoice.endedCycle.start;
  return `${span(period.end - period.start)} of ${span(total)}`;
}
