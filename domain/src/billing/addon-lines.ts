import type { Cents } from '../money/cents.ts';
import { formatCents } from '../money/format-cents.ts';
import * as Q from '../money/rational.ts';
import { roundHalfUp } from '../money/round.ts';
import { ADDON_DEFINITIONS, ADDON_METRICS, type AddonDefinition } from './addons.ts';
import { breakdownOf, QUANTITY_DECIMALS } from './breakdown.ts';
import { scheduledCycleHours, type BillingWindow, type ExactAddonHours } from './invoice-input.ts';
import { invoiceLine } from './invoice-line.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';

function priceDescription(addon: AddonDefinition): string {
  if (addon.monthlyPriceCents === 0 && addon.firstProjectMonthlyPriceCents === null)
    return 'Included';
  const each = `${formatCents(addon.monthlyPriceCents)} per month`;
  if (addon.firstProjectMonthlyPriceCents === null) return each;
  return `${formatCents(addon.firstProjectMonthlyPriceCents)} per month for the first project, ${formatCents(addon.monthlyPriceCents)} for each further project`;
}

/** The project that pays a first-project price: the first in the organization's order. */
function firstProjectRef(
  window: BillingWindow,
  entries: readonly ExactAddonHours[],
): string | undefined {
  const refs = new Set(entries.map((entry) => entry.projectRef));
  return window.projects.find((p) => refs.has(p.ref))?.ref ?? entries[0]?.projectRef;
}

function addonLine(
  window: BillingWindow,
  addon: AddonDefinition,
  entries: readonly ExactAddonHours[],
): UpcomingInvoiceLine {
  const first =
    addon.firstProjectMonthlyPriceCents === null ? undefined : firstProjectRef(window, entries);
  const monthly = (ref: string): Cents =>
    ref === first
      ? (addon.firstProjectMonthlyPriceCents ?? addon.monthlyPriceCents)
      : addon.monthlyPriceCents;
  // The monthly price spread over the hours of this cycle as scheduled: a whole cycle costs exactly
  // the price, one a plan change cut short only its hours.
  const month = scheduledCycleHours(window.period);
  const perHour = (ref: string) => Q.divide(Q.rational(monthly(ref)), month);
  const shares = entries.map((entry) => ({
    projectRef: entry.projectRef,
    weight: Q.multiply(entry.hours, perHour(entry.projectRef)),
    usage: entry.hours,
    hours: entry.hours,
  }));
  const amount = roundHalfUp(Q.sum(shares.map((share) => share.weight)));
  const hours = Q.sum(entries.map((entry) => entry.hours));
  // Priced per month, so counted in months: a project's hours over the hours of the cycle.
  const prices = new Set(entries.map((entry) => monthly(entry.projectRef)));
  const [onlyPrice] = prices;
  return invoiceLine({
    description: addon.name,
    amount,
    unitPriceDesc: priceDescription(addon),
    usageMetric: addon.metric,
    usageOriginal: Q.toNumber(hours, QUANTITY_DECIMALS),
    // The plan includes none of an add-on's hours.
    includedQuantity: 0,
    // At two prices (a first project's) no one price makes the amount: the line is one unit of itself,
    // and its price description states both.
    ...(prices.size === 1 && onlyPrice !== undefined
      ? { quantity: Q.divide(hours, month), unitPrice: Q.rational(onlyPrice) }
      : { quantity: Q.rational(1), unitPrice: Q.rational(amount) }),
    breakdown: breakdownOf(amount, shares, window.projects),
  });
}

/** One line per add-on in catalogue order, prorated per hour of the cycle. */
export function addonLines(window: BillingWindow): UpcomingInvoiceLine[] {
  return ADDON_METRICS.flatMap((metric) => {
    const entries = window.addons.filter((entry) => entry.addon === metric);
    return entries.length === 0 ? [] : [addonLine(window, ADDON_DEFINITIONS[metric], entries)];
  });
}
