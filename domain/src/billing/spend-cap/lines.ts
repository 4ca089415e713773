import { formatPeriod } from '../../format/dates.ts';
import type { BillingPeriod } from '../invoice-input.ts';
import { invoiceLine } from '../invoice-line.ts';
import { USAGE_METRIC_DEFINITIONS } from '../metrics.ts';
import { QUOTA_DEFINITIONS } from '../quotas.ts';
import type { UpcomingInvoiceLine } from '../schemas.ts';
import * as Q from '../../money/rational.ts';
import { formatPriceDollars, priceRational } from '../unit-price.ts';
import { amountOf, CAPPED_METRICS, type CappedOverage } from './overage-reading.ts';

/**
 * Invoice lines for settled spend-cap overage, one per capped metric that bills something, in the
 * catalogue's order, worded as the upcoming invoice words overage ("Egress", "$0.09 per GB"). With a
 * `period` the description names it, as the invoice a toggle issues must ("Egress (Nov 01, 2026 –
 * Nov 12, 2026)"). No usage quantity or project breakdown: what a line bills is an increase over intervals,
 * not one quantity of usage.
 */
export function spendCapOverageLines(
  amounts: CappedOverage,
  period?: BillingPeriod,
): UpcomingInvoiceLine[] {
  return CAPPED_METRICS.flatMap((metric) => {
    const amount = amountOf(amounts, metric);
    if (amount === 0) return [];
    const definition = QUOTA_DEFINITIONS[metric];
    const price = formatPriceDollars(definition.price, definition.priceUnit.units);
    const name = USAGE_METRIC_DEFINITIONS[metric].name;
    const unitPrice = Q.multiply(
      priceRational(definition.price),
      Q.rational(definition.priceUnit.units),
    );
    return [
      invoiceLine({
        description: period ? `${name} (${formatPeriod(period.start, period.end)})` : name,
        amount,
        unitPriceDesc: `${price} ${definition.priceUnit.label}`,
        usageMetric: metric,
        usageOriginal: null,
        // What the line bills, in the unit the price is stated for: the cents over the unit price,
        // exactly, so quantity × unit price is the amount (the increase is billed by its amount).
        quantity: Q.divide(Q.rational(amount), unitPrice),
        unitPrice,
      }),
    ];
  });
}
