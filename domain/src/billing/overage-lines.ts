import * as Q from '../money/rational.ts';
import { breakdownOf, QUANTITY_DECIMALS } from './breakdown.ts';
import { cycleFraction, cycleHours, type BillingWindow } from './invoice-input.ts';
import { invoiceLine } from './invoice-line.ts';
import { USAGE_METRIC_DEFINITIONS } from './metrics.ts';
import { overageOf, type QuotaContext } from './overage.ts';
import { QUOTA_DEFINITIONS, QUOTA_METRICS, type QuotaMetric } from './quotas.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';
import { formatPriceDollars, priceRational } from './unit-price.ts';

/** "$0.09 per GB": the overage price as lines and usage records state it. */
export function overagePriceDescription(metric: QuotaMetric): string {
  const definition = QUOTA_DEFINITIONS[metric];
  const price = formatPriceDollars(definition.price, definition.priceUnit.units);
  return `${price} ${definition.priceUnit.label}`;
}

export function quotaContextOf(window: BillingWindow): QuotaContext {
  return {
    projectCount: window.projects.length,
    cycleHours: cycleHours(window.period),
    cycleFraction: cycleFraction(window.period),
  };
}

/**
 * One line per metric whose usage beyond the included quota is billed and costs at least a cent once
 * rounded: an overage of one user (0.325¢) would be a "$0.00" line that bills nothing and only
 * raises the question why it is there.
 */
export function overageLines(window: BillingWindow): UpcomingInvoiceLine[] {
  const context = quotaContextOf(window);
  return QUOTA_METRICS.flatMap((metric) => {
    const usage = window.usage.get(metric) ?? Q.ZERO;
    const result = overageOf(window.planId, window.usageBillingEnabled, metric, usage, context);
    if (result.cents === 0) return [];
    const definition = QUOTA_DEFINITIONS[metric];
    const shares = window.usageByProject
      .filter((entry) => entry.metric === metric)
      .map((entry) => ({
        projectRef: entry.projectRef,
        weight: entry.usage,
        usage: entry.usage,
        hours: null,
      }));
    const hasShares = shares.some((share) => !Q.isZero(share.weight));
    return [
      invoiceLine({
        description: USAGE_METRIC_DEFINITIONS[metric].name,
        amount: result.cents,
        unitPriceDesc: overagePriceDescription(metric),
        usageMetric: metric,
        // In a cycle cut short, a size's GB-months: its average × the cycle's fraction of a month.
        usageOriginal: Q.toNumber(result.used, QUANTITY_DECIMALS),
        // The quota, in the usage's unit: usage − included is the overage the quantity counts.
        includedQuantity: Q.toNumber(result.included, QUANTITY_DECIMALS),
        // The overage beyond the quota, counted in the unit the price is stated for (GB, million).
        quantity: Q.divide(result.overage, Q.rational(definition.priceUnit.units)),
        unitPrice: Q.multiply(
          priceRational(definition.price),
          Q.rational(definition.priceUnit.units),
        ),
        breakdown: hasShares ? breakdownOf(result.cents, shares, window.projects) : [],
      }),
    ];
  });
}
