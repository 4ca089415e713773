import { formatCents } from '../money/format-cents.ts';
import * as Q from '../money/rational.ts';
import { ADDON_DEFINITIONS, isAddonMetric } from './addons.ts';
import { isComputeMetric } from './compute.ts';
import { reconcilingQuantity } from './invoice-line.ts';
import type { BillingMetric } from './metrics.ts';
import { isQuotaMetric, QUOTA_DEFINITIONS } from './quotas.ts';
import type { InvoiceLineBreakdown, UpcomingInvoiceLine } from './schemas.ts';

/**
 * A line as shown: the upcoming invoice's, or a finalized invoice's, whose unit price is null on
 * lines recorded before it was kept.
 */
export type ShownLine = Omit<UpcomingInvoiceLine, 'unit_price'> & { unit_price: number | null };

/** The fewest and the most decimals a billable quantity is shown with. */
const MIN_DECIMALS = 2;
const MAX_DECIMALS = 12;

/**
 * How a usage line's quantities are written, all in the unit its price is stated for, so that a person
 * can check it by hand: `used` − `included` = `billed`, and `billed` × `unitPrice` = the amount to the cent.
 */
export interface LineQuantities {
  /** The whole usage ("309.85 GB"); null where it is the billable quantity itself (compute hours). */
  readonly used: string | null;
  /** What the plan includes of it ("250 GB"); null when it includes none. */
  readonly included: string | null;
  /** The billable quantity ("59.85 GB"). */
  readonly billed: string;
  /** The price of one unit of `billed` ("$0.09 per GB"). */
  readonly unitPrice: string;
  /** The three quantities and the price in one sentence, for narrow screens and the PDF. */
  readonly summary: string;
}

interface LineUnit {
  /** Written after a billable quantity: "GB", "hours", "months". */
  readonly label: string;
  /** How many of `usage_original`'s unit make one of it (1e9 bytes a GB); null: not convertible. */
  readonly per: number | null;
  /** Written after the usage when it is not in the billable unit ("hours" of an add-on billed in months). */
  readonly usageLabel?: string;
}

function unitOf(metric: BillingMetric): LineUnit | null {
  if (isQuotaMetric(metric)) {
    const { quantityLabel, units } = QUOTA_DEFINITIONS[metric].priceUnit;
    return { label: quantityLabel, per: units };
  }
  if (isComputeMetric(metric)) return { label: 'hours', per: 1 };
  // An add-on is used by the hour and priced by the month (the hours over the cycle's hours).
  if (isAddonMetric(metric)) return { label: 'months', per: null, usageLabel: 'hours' };
  return null;
}

/** "1 month", "2 months": a plural unit label in the singular for exactly one. */
function withUnit(value: number, text: string, label: string): string {
  const singular = value === 1 && /s$/.test(label) && label !== 'MB/s' ? label.slice(0, -1) : label;
  return `${text} ${singular}`;
}

const formats = new Map<string, Intl.NumberFormat>();
/** A quantity with up to `decimals` decimals; hours always with two at least, as formatHours writes them. */
function formatNumber(value: number, decimals: number, label: string): string {
  const minimum = label === 'hours' ? Math.min(2, decimals) : 0;
  const key = `${minimum}|${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat('en-US', {
      minimumFractionDigits: minimum,
      maximumFractionDigits: decimals,
    });
    formats.set(key, format);
  }
  return format.format(value);
}

/**
 * The billable quantity as shown, and its decimals: two, or more when the quantity rounded to two would
 * not give back the amount at the line's price (0.48 of a month at $10.00 is $4.80; the line bills $4.84).
 */
export function shownBillable(line: Pick<ShownLine, 'quantity' | 'unit_price' | 'amount'>): {
  value: number;
  decimals: number;
} {
  const exact = Q.rationalFromNumber(line.quantity);
  if (line.unit_price === null) {
    return { value: Q.toNumber(exact, MIN_DECIMALS), decimals: MIN_DECIMALS };
  }
  const value = reconcilingQuantity(
    exact,
    line.unit_price,
    line.amount,
    MIN_DECIMALS,
    MAX_DECIMALS,
  );
  const fraction = /\.(\d+)$/.exec(String(value))?.[1] ?? '';
  return { value, decimals: Math.max(MIN_DECIMALS, fraction.length) };
}

/**
 * A usage line's quantities as shown on the invoice (upcoming, finalized and PDF alike); null for lines
 * that are not priced from usage at a single price (the plan fee, compute credits, an add-on whose first
 * project pays another price), which show their price description instead.
 */
export function lineQuantities(line: ShownLine): LineQuantities | null {
  if (!line.usage_based || line.usage_metric === null) return null;
  // Priced twice (a first project's price), or included at no price: the price description says it.
  if (line.unit_price === null || line.unit_price === 0 || pricedTwice(line)) return null;
  const unit = unitOf(line.usage_metric);
  if (!unit) return null;
  const { value: quantity, decimals } = shownBillable(line);
  const inUnit = (value: number | null) =>
    value === null || unit.per === null
      ? null
      : Q.toNumber(Q.divide(Q.rationalFromNumber(value), Q.rational(unit.per)), decimals);
  const billed = withUnit(quantity, formatNumber(quantity, decimals, unit.label), unit.label);
  const includedValue = inUnit(line.included_quantity);
  const included =
    includedValue === null || includedValue === 0
      ? null
      : withUnit(includedValue, formatNumber(includedValue, decimals, unit.label), unit.label);
  let used: string | null = null;
  if (unit.usageLabel !== undefined && line.usage_original !== null) {
    used = withUnit(
      line.usage_original,
      formatNumber(line.usage_original, 2, unit.usageLabel),
      unit.usageLabel,
    );
  } else {
    const usedValue = inUnit(line.usage_original);
    // Compute bills every hour it uses: the usage is the billable quantity, said once.
    if (usedValue !== null && (included !== null || usedValue !== quantity)) {
      used = withUnit(usedValue, formatNumber(usedValue, decimals, unit.label), unit.label);
    }
  }
  const unitPrice = line.unit_price_desc;
  const parts = [
    used === null ? null : `${used} used`,
    included === null ? null : `${included} included`,
    used === null ? `${billed} × ${unitPrice}` : `${billed} billed × ${unitPrice}`,
  ];
  return {
    used,
    included,
    billed,
    unitPrice,
    summary: parts.filter((part): part is string => part !== null).join(' · '),
  };
}

/**
 * How a project's row of a line explains its share: its usage in the line's unit and, where the line is
 * split in proportion to usage (every line at a single price) among several projects, that proportion of
 * the line's amount.
 */
export function projectShare(
  line: Pick<ShownLine, 'usage_metric' | 'unit_price' | 'breakdown' | 'amount'>,
  entry: InvoiceLineBreakdown,
): { usage: string | null; share: string | null } {
  const unit = line.usage_metric === null ? null : unitOf(line.usage_metric);
  let usage: string | null = null;
  if (unit) {
    const value =
      unit.per === null
        ? entry.usage
        : Q.toNumber(Q.divide(Q.rationalFromNumber(entry.usage), Q.rational(unit.per)), 2);
    usage = withUnit(
      value,
      formatNumber(value, 2, unit.usageLabel ?? unit.label),
      unit.usageLabel ?? unit.label,
    );
  }
  const total = line.breakdown.reduce((sum, row) => sum + row.usage, 0);
  // One project makes the whole line: its amount says all a share would.
  if (line.unit_price === null || pricedTwice(line) || total <= 0 || line.breakdown.length < 2) {
    return { usage, share: null };
  }
  const percent = formatNumber((entry.usage / total) * 100, 1, '%');
  return { usage, share: `${percent}% of ${formatCents(line.amount)}` };
}

/**
 * An add-on line whose first project pays another price (phone MFA) over several projects: no one
 * price makes it, so it is stated as one unit of itself and its price description says both prices.
 */
function pricedTwice(line: Pick<UpcomingInvoiceLine, 'usage_metric' | 'breakdown'>): boolean {
  const metric = line.usage_metric;
  return (
    metric !== null &&
    isAddonMetric(metric) &&
    ADDON_DEFINITIONS[metric].firstProjectMonthlyPriceCents !== null &&
    line.breakdown.length > 1
  );
}
