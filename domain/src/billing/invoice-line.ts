import type { Cents } from '../money/cents.ts';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import type { BillingMetric } from './metrics.ts';
import type { InvoiceLineBreakdown, UpcomingInvoiceLine } from './schemas.ts';

/**
 * Precision of a line's `quantity`: finer than the two decimals shown beside an amount, so that
 * quantity × unit_price comes back to the amount (a part-month add-on is 0.483871 of a month).
 */
export const LINE_QUANTITY_DECIMALS = 6;
/** The most decimals a quantity is given when six do not bring quantity × unit_price back to the amount. */
const MAX_LINE_QUANTITY_DECIMALS = 12;

/** A catalogue price in cents as the exact decimal it is (1.344 for a Micro hour); never for sums. */
export function unitPriceCents(price: Q.Rational): number {
  return Number(Q.toDecimalString(price));
}

/** Whether `quantity` at `unitPrice` cents, both as stated, rounds half up to `amount` cents. */
export function quantityMakesAmount(quantity: number, unitPrice: number, amount: Cents): boolean {
  return (
    roundHalfUp(Q.multiply(Q.rationalFromNumber(quantity), Q.rationalFromNumber(unitPrice))) ===
    amount
  );
}

/**
 * A quantity written with as few decimals as `minDecimals`..`maxDecimals` allow such that, written so, it
 * times `unitPrice` rounds half up to `amount`: the nearest value at that precision, else its neighbour
 * one step up or down (an exact amount of x.5¢ from a recurring decimal is reached by no truncation of
 * it, only by the neighbour above). The nearest at `maxDecimals` when none does (never for the engine's
 * lines, whose amount is the rounded exact product).
 */
export function reconcilingQuantity(
  exact: Q.Rational,
  unitPrice: number,
  amount: Cents,
  minDecimals: number,
  maxDecimals: number,
): number {
  for (let decimals = minDecimals; decimals <= maxDecimals; decimals++) {
    const nearest = Q.toNumber(exact, decimals);
    const step = Q.rational(1n, 10n ** BigInt(decimals));
    const around = Q.rationalFromNumber(nearest);
    for (const candidate of [around, Q.add(around, step), Q.subtract(around, step)]) {
      const stated = Q.toNumber(candidate, decimals);
      if (quantityMakesAmount(stated, unitPrice, amount)) return stated;
    }
  }
  return Q.toNumber(exact, maxDecimals);
}

/** The quantity as the line states it: six decimals, or as many more as it takes to reconcile. */
function statedQuantity(quantity: Q.Rational, unitPrice: number, amount: Cents): number {
  return reconcilingQuantity(
    quantity,
    unitPrice,
    amount,
    LINE_QUANTITY_DECIMALS,
    MAX_LINE_QUANTITY_DECIMALS,
  );
}

/** An upcoming-invoice line with no discount, as every line the engine makes. */
export function invoiceLine(fields: {
  description: string;
  amount: Cents;
  unitPriceDesc: string;
  usageMetric: BillingMetric | null;
  usageOriginal: number | null;
  /**
   * Of `usageOriginal`, what the plan includes (in the same unit): the quota of an overage line, 0 for
   * compute and add-ons. Left out: null, for lines not priced from usage.
   */
  includedQuantity?: number | null;
  /** How many of the unit `unitPriceDesc` prices the line bills (hours, GB, months...). */
  quantity: Q.Rational;
  /**
   * Cents per that unit, so that quantity × unit price is the amount: every line
   * has one (compute credits at minus the month's credits, a line at two prices as one unit of itself).
   */
  unitPrice: Q.Rational;
  /** Time given back on a plan change (the unused part of the old plan's fee). */
  proration?: boolean;
  isBranch?: boolean;
  isReadReplica?: boolean;
  breakdown?: InvoiceLineBreakdown[];
}): UpcomingInvoiceLine {
  const unitPrice = unitPriceCents(fields.unitPrice);
  return {
    description: fields.description,
    amount: fields.amount,
    amount_before_discount: fields.amount,
    unit_price_desc: fields.unitPriceDesc,
    usage_metric: fields.usageMetric,
    usage_original: fields.usageOriginal,
    included_quantity: fields.includedQuantity ?? null,
    metadata: {
      is_branch: fields.isBranch ?? false,
      is_read_replica: fields.isReadReplica ?? false,
    },
    breakdown: fields.breakdown ?? [],
    proration: fields.proration ?? false,
    quantity: statedQuantity(fields.quantity, unitPrice, fields.amount),
    unit_price: unitPrice,
    // Priced from a metric's measured hours or usage; fees, credits and proration are not.
    usage_based: fields.usageMetric !== null,
  };
}
