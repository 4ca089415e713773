import {
  cardsExpiringUnnoticed,
  noticeExpiringCard,
} from '../notifications/card-expiry-notices.ts';
import { invoicesDueForPayment } from '../../repositories/invoices.ts';
import { subscriptionsDue } from '../../repositories/subscriptions.ts';
import type { PaymentDeps } from '../charges/payment-deps.ts';
import { reconcileCharge, staleCharges } from '../charges/reconcile-charges.ts';
import { chargesOwingRefunds, issueRefund } from '../charges/refund-charge.ts';
import { closeCycle } from '../invoices/close-cycle.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../../lib/close-grace.ts';
import { collectInvoice } from '../invoices/collect-invoice.ts';
import { JobFailures, type JobItemError } from '../../repositories/job-failures.ts';
import { overdueCandidates, restrictIfOverdue } from '../restrictions/restrictions.ts';
import {
  observeCurrentUsage,
  usageRestrictionCandidates,
} from '../restrictions/usage-restriction.ts';
import { organizationsWithSpendAlert } from '../../repositories/spend-alerts.ts';
import { checkSpendAlerts } from '../spend-alerts/check-spend-alerts.ts';

export interface BillingRunReport {
  closed: string[];
  paid: string[];
  failed: string[];
  restricted: string[];
  /** Organizations whose restriction their usage changed (a grace period begun, ended, or restricted). */
  usageRestrictionChanged: string[];
  /** Organizations sent a spend alert this run (product decisions §12). */
  spendAlerted: string[];
  reconciled: string[];
  refunded: string[];
  /** Items that failed this run, each recorded with its reason and retried after a backoff. */
  errors: JobItemError[];
  /** Items skipped because they are waiting out the backoff of an earlier failure. */
  deferred: number;
}

/** A cycle that closes more than this many times in one run means a clock far in the future: stop. */
const MAX_CYCLES_PER_RUN = 120;

/**
 * How many organizations (and invoices) one process works on at once: on a PostgreSQL server the job
 * spends most of its time waiting for round trips, so a few at a time share a process's connections; the
 * embedded database has one connection, where more would only queue.
 */
export function billingJobConcurrency(store: 'pglite' | 'postgres'): number {
  return store === 'postgres' ? 4 : 1;
}

/** Runs `work` for each item, at most `concurrency` at once, in the list's order of starting. */
async function eachConcurrently<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker),
  );
}

/**
 * One pass of the billing job at `at` (the billing time; liveness and backoff go by the wall clock of
 * `deps`): closes every cycle that has ended (all of them, if the job runs late) and collects each
 * invoice it finalizes right after its close, collects the other invoices due, settles charges that lost their way, pays out refunds still owed, restricts organizations with
 * overdue payments, and sends the usage so far of every Free or spend-capped organization to its
 * restriction lifecycle (product-decisions §11: this is what ends a grace period once its end has
 * passed; `observeUsage: false` leaves it out, for the demo seed's replay of a past whose restrictions
 * it types in), then checks every organization with a spend alert budget against it (§12). Each organization, invoice and charge is an item of its own: one that fails is
 * recorded and backed off, and the run goes on with the others. Safe to run from several processes at
 * once: every step locks what it changes and is keyed so it happens once. Several processes share the
 * work rather than queue: a run for everyone leaves an organization whose subscription another
 * transaction holds to that one (its close, or a plan change: the next run sees it again), and an invoice
 * whose payment another process has in flight. `concurrency` (default 1) is how many organizations,
 * then invoices, this process works on at once (billingJobConcurrency).
 */
export async function runBillingJobs(
  deps: PaymentDeps,
  at: Date,
  onlyOrganizationId?: string,
  closeGraceMinutes = DEFAULT_CLOSE_GRACE_MINUTES,
  options: { observeUsage?: boolean; concurrency?: number } = {},
): Promise<BillingRunReport> {
  const concurrency = options.concurrency ?? 1;
  const { db } = deps;
  // An operator running one organization by hand means it: no backoff stands in the way.
  const items = await JobFailures.load(db, () => deps.clock.now(), {
    honourBackoff: onlyOrganizationId === undefined,
  });
  const report: Omit<BillingRunReport, 'errors' | 'deferred'> = {
    closed: [],
    paid: [],
    failed: [],
    restricted: [],
    usageRestrictionChanged: [],
    spendAlerted: [],
    reconciled: [],
    refunded: [],
  };
  // A cycle is due once its grace window for late usage has passed (close-grace.ts).
  const endedBy = new Date(at.getTime() - closeGraceMinutes * 60_000);
  const due = onlyOrganizationId ? [onlyOrganizationId] : await subscriptionsDue(db, endedBy);
  // An operator closing one organization waits for its lock; the job for everyone moves on.
  const skipLocked = onlyOrganizationId === undefined;
  // Each invoice is collected once a run, as before closes collected their own: one whose collection
  // failed just now waits for the next run (and its backoff), not for the sweep below.
  const collected = new Set<string>();
  const collect = async (invoiceId: string, organizationId: string) => {
    if (collected.has(invoiceId)) return;
    collected.add(invoiceId);
    const result = await items.isolate('collect', invoiceId, organizationId, () =>
      collectInvoice(deps, invoiceId, { at, trigger: 'automatic' }),
    );
    if (result?.status === 'paid') report.paid.push(invoiceId);
    if (result?.status === 'failed') report.failed.push(invoiceId);
  };
  await eachConcurrently(due, concurrency, async (organizationId) => {
    const chargeable: string[] = [];
    await items.isolate('close_cycle', organizationId, organizationId, async () => {
      for (let cycle = 0; cycle < MAX_CYCLES_PER_RUN; cycle++) {
        const result = await closeCycle(db, organizationId, at, closeGraceMinutes, { skipLocked });
        if (result.status === 'not_due' || result.status === 'busy') break;
        if (result.status === 'closed') report.closed.push(result.invoiceId);
        if (result.status === 'closed' && result.chargeable) chargeable.push(result.invoiceId);
      }
    });
    // Collected by whoever closed it, at once: processes that share the closes share the charges too.
    for (const invoiceId of chargeable) await collect(invoiceId, organizationId);
  });
  // Then every other invoice due (retries, and any a crash left between its close and its charge).
  const collectable = await invoicesDueForPayment(db, at, onlyOrganizationId);
  await eachConcurrently(collectable, concurrency, (invoice) =>
    collect(invoice.id, invoice.organizationId),
  );
  for (const charge of await staleCharges(deps)) {
    if (onlyOrganizationId && charge.organization_id !== onlyOrganizationId) continue;
    const ended = await items.isolate('reconcile', charge.id, charge.organization_id, () =>
      reconcileCharge(deps, charge),
    );
    if (ended) report.reconciled.push(charge.id);
  }
  for (const charge of await chargesOwingRefunds(deps)) {
    if (onlyOrganizationId && charge.organization_id !== onlyOrganizationId) continue;
    const refunded = await items.isolate('refund', charge.id, charge.organization_id, () =>
      issueRefund(deps, charge),
    );
    if (refunded?.refund_status === 'succeeded') report.refunded.push(charge.id);
  }
  for (const organizationId of await overdueCandidates(db, at)) {
    if (onlyOrganizationId && organizationId !== onlyOrganizationId) continue;
    const restricted = await items.isolate('overdue', organizationId, organizationId, () =>
      restrictIfOverdue(db, organizationId, at),
    );
    if (restricted) report.restricted.push(organizationId);
  }
  // After the closes: an organization whose cycle has just closed is observed in its new cycle.
  const limited =
    options.observeUsage === false
      ? []
      : onlyOrganizationId
        ? [onlyOrganizationId]
        : await usageRestrictionCandidates(db);
  for (const organizationId of limited) {
    const changed = await items.isolate('usage_restriction', organizationId, organizationId, () =>
      observeCurrentUsage(db, organizationId, at),
    );
    if (changed) report.usageRestrictionChanged.push(organizationId);
  }
  // Billing recipients hear of a card that expires this month, once per card and month.
  for (const card of await cardsExpiringUnnoticed(db, at, onlyOrganizationId)) {
    await items.isolate('card_expiry', card.id, card.organizationId, () =>
      noticeExpiringCard(db, card.id, at),
    );
  }
  // After the closes too: a cycle that has just closed is checked as the new one, which starts clean.
  const budgeted = await organizationsWithSpendAlert(
    db,
    onlyOrganizationId ? [onlyOrganizationId] : undefined,
  );
  for (const organizationId of budgeted) {
    const sent = await items.isolate('spend_alert', organizationId, organizationId, () =>
      checkSpendAlerts(db, organizationId, at),
    );
    if (sent && sent.length > 0) report.spendAlerted.push(organizationId);
  }
  return { ...report, errors: items.errors, deferred: items.deferred };
}
