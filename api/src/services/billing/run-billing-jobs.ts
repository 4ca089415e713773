import type { Db } from '../../db/database.ts';
import { invoicesDueForPayment } from '../../repositories/invoices.ts';
import { subscriptionsDue } from '../../repositories/subscriptions.ts';
import type { PaymentGateway } from '../payments/payment-gateway.ts';
import { reconcileStaleCharges } from '../payments/reconcile-charges.ts';
import { closeCycle } from './close-cycle.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from './close-grace.ts';
import { collectInvoice } from './collect-invoice.ts';
import { enforceOverduePayments } from './restrictions.ts';

export interface BillingRunReport {
  closed: string[];
  paid: string[];
  failed: string[];
  restricted: string[];
  reconciled: string[];
}

/** A cycle that closes more than this many times in one run means a clock far in the future: stop. */
const MAX_CYCLES_PER_RUN = 120;

/**
 * One pass of the billing job at `at`: closes every cycle that has ended (all of them, if the job runs
 * late), collects the invoices due, and restricts organizations with overdue payments. Safe to run from
 * several processes at once: every step locks what it changes and is keyed so it happens once.
 */
export async function runBillingJobs(
  db: Db,
  gateway: PaymentGateway,
  at: Date,
  onlyOrganizationId?: string,
  closeGraceMinutes = DEFAULT_CLOSE_GRACE_MINUTES,
): Promise<BillingRunReport> {
  const report: BillingRunReport = {
    closed: [],
    paid: [],
    failed: [],
    restricted: [],
    reconciled: [],
  };
  // A cycle is due once its grace window for late usage has passed (close-grace.ts).
  const endedBy = new Date(at.getTime() - closeGraceMinutes * 60_000);
  const due = onlyOrganizationId ? [onlyOrganizationId] : await subscriptionsDue(db, endedBy);
  for (const organizationId of due) {
    for (let cycle = 0; cycle < MAX_CYCLES_PER_RUN; cycle++) {
      const result = await closeCycle(db, organizationId, at, closeGraceMinutes);
      if (result.status === 'not_due') break;
      if (result.status === 'closed') report.closed.push(result.invoiceId);
    }
  }
  for (const invoiceId of await invoicesDueForPayment(db, at, onlyOrganizationId)) {
    const result = await collectInvoice(db, gateway, invoiceId, { at, trigger: 'automatic' });
    if (result.status === 'paid') report.paid.push(invoiceId);
    if (result.status === 'failed') report.failed.push(invoiceId);
  }
  report.reconciled = await reconcileStaleCharges(db, gateway, at);
  report.restricted = await enforceOverduePayments(db, at);
  return report;
}
