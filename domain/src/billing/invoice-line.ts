import type { Cents } from '../money/cents.ts';
import * as Q from '../money/rational.ts';
import type { BillingMetric } from './metrics.ts';
import type { InvoiceLineBreakdown, UpcomingInvoiceLine } from './schemas.ts';

/**
 * Precision of a line's `quantity`: finer than the two decimals shown beside an amount, so that
 * quantity × unit_price comes back to the amount (a part-month add-on is 0.483871 of a month).
 */
export const LINE_QUANTITY_DECIMALS = 6;

/** A catalogue price in cents as the exact decimal it is (1.344 for a Micro hour); never for sums. */
export function unitPriceCents(price: Q.Rational): number {
  return Number(Q.toDecimalString(price));
}

/** An upcoming-invoice line with no discount, as every line the engine makes. */
export function invoiceLine(fields: {
  description: string;
  amount: Cents;
  unitPriceDesc: string;
  usageMetric: BillingMetric | null;
  usageOriginal: number | null;
  /** How many of the unit `unitPriceDesc` prices the line bills (hours, GB, months...). */
  quantity: Q.Rational;
  /** Cents per that unit; null when no single price makes the amount (credits, two MFA prices). */
  unitPrice: Q.Rational | null;
  /** Time given back on a plan change (the unused part of the old plan's fee). */
  proration?: boolean;
  isBranch?: boolean;
  isReadReplica?: boolean;
  breakdown?: InvoiceLineBreakdown[];
}): UpcomingInvoiceLine {
  return {
    description: fields.description,
    amount: fields.amount,
    amount_before_discount: fields.amount,
    unit_price_desc: fields.unitPriceDesc,
    usage_metric: fields.usageMetric,
    usage_original: fields.usageOriginal,
    metadata: {
      is_branch: fields.isBranch ?? false,
      is_read_replica: fields.isReadReplica ?? false,
    },
    breakdown: fields.breakdown ?? [],
    proration: fields.proration ?? false,
    quantity: Q.toNumber(fields.quantity, LINE_QUANTITY_DECIMALS),
    unit_price: fields.unitPrice === null ? null : unitPriceCents(fields.unitPrice),
    // Priced from a metric's measured hours or usage; fees, credits and proration are not.
    usage_based: fields.usageMetric !== null,
  };
}
