import type { Cents } from '../money/cents.ts';
import type { BillingMetric } from './metrics.ts';
import type { InvoiceLineBreakdown, UpcomingInvoiceLine } from './schemas.ts';

/** An upcoming-invoice line with no discount, as every line the engine makes. */
export function invoiceLine(fields: {
  description: string;
  amount: Cents;
  unitPriceDesc: string;
  usageMetric: BillingMetric | null;
  usageOriginal: number | null;
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
  };
}
