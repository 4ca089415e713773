import { sumCents } from '../money/cents.ts';
import { addonLines } from './addon-lines.ts';
import { computeCreditsLine } from './compute-credits.ts';
import { computeLines } from './compute-lines.ts';
import { toBillingWindow, type BillingWindow, type UpcomingInvoiceInput } from './invoice-input.ts';
import { overageLines } from './overage-lines.ts';
import { planLine } from './plan-line.ts';
import { projectionBasisOf, projectToCycleEnd } from './projection.ts';
import type { InvoiceProjection, PricedInvoice, UpcomingInvoiceLine } from './schemas.ts';

/** The lines of a window: plan, compute, compute credits, add-ons, then overage. */
export function invoiceLinesOf(window: BillingWindow): UpcomingInvoiceLine[] {
  const compute = computeLines(window);
  const credits = computeCreditsLine(window, compute);
  return [
    planLine(window),
    ...compute,
    ...(credits ? [credits] : []),
    ...addonLines(window),
    ...overageLines(window),
  ];
}

/** The lines accrued so far (what `amount_total` sums). */
export function accruedInvoiceLines(input: UpcomingInvoiceInput): UpcomingInvoiceLine[] {
  return invoiceLinesOf(toBillingWindow(input));
}

/**
 * The lines of the invoice as projected to the end of the cycle. At the cycle end the engine
 * finalizes exactly these lines, so with asOf = period.end they equal the accrued lines.
 */
export function projectedInvoiceLines(input: UpcomingInvoiceInput): UpcomingInvoiceLine[] {
  return invoiceLinesOf(projectToCycleEnd(toBillingWindow(input)));
}

export function invoiceTotal(lines: readonly UpcomingInvoiceLine[]): number {
  return sumCents(lines.map((line) => line.amount));
}

/** How a window was projected, with the projected lines that `amount_projected` sums. */
export function projectionOf(
  window: BillingWindow,
  lines: readonly UpcomingInvoiceLine[],
): InvoiceProjection {
  const basis = projectionBasisOf(window);
  return {
    from: new Date(basis.from * 1000).toISOString(),
    remaining_hours: basis.remainingHours,
    measured_hours: basis.measuredHours,
    usage_hours_left: basis.usageHoursLeft,
    lines: [...lines],
  };
}

/** The lines and totals of the GET /billing/invoices/upcoming answer. */
export function computeUpcomingInvoice(input: UpcomingInvoiceInput): PricedInvoice {
  const window = toBillingWindow(input);
  const lines = invoiceLinesOf(window);
  const projected = invoiceLinesOf(projectToCycleEnd(window));
  return {
    lines,
    amount_total: invoiceTotal(lines),
    amount_projected: invoiceTotal(projected),
    projection: projectionOf(window, projected),
  };
}
