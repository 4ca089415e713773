import { enqueueBillingEmail } from '../notifications/enqueue-email.ts';
import {
  nextRestrictionState,
  restrictionColumns,
  restrictionStateOf,
  USAGE_METRIC_DEFINITIONS,
  type RestrictionData,
  type RestrictionObservation,
} from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordTransitions } from '../../repositories/restriction-transitions.ts';
import { enqueueWebhookEvent } from '../webhooks/enqueue-webhook.ts';

export const OVERDUE_AFTER_DAYS = 14;
const DAY_MS = 86_400_000;

/** Organizations that may have an invoice still unpaid 14 days after finalization (read unlocked). */
export async function overdueCandidates(db: Db, at: Date): Promise<string[]> {
  const rows = await db
    .selectFrom('invoices')
    .select('organization_id')
    .distinct()
    .where('status', '=', 'open')
    .where('finalized_at', '<=', overdueCutoff(at))
    .execute();
  return rows.map((row) => row.organization_id);
}

/**
 * Restricts an organization whose invoice is still unpaid 14 days after finalization. The decision and
 * the write are one step under the organization's row lock, which a payment's settlement also takes
 * (after marking its invoice paid) before it lifts the restriction: whichever comes second sees the
 * other's result, so an organization that has just paid is never left restricted.
 */
export async function restrictIfOverdue(
  db: Db,
  organizationId: string,
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // The lock before the count (observeRestriction takes it again, which a transaction may).
    if (!(await lockOrganization(trx, organizationId))) return false;
    if ((await overdueCount(trx, organizationId, at)) === 0) return false;
    return observeRestriction(trx, organizationId, { kind: 'payment_overdue' }, at);
  });
}

/**
 * Applies what was observed to the organization's restriction state (product-decisions §11, the
 * domain's `nextRestrictionState`) under its row lock, and records each transition with it. `db` is a
 * transaction. Applying the same observation again changes and records nothing. True when it changed.
 */
export async function observeRestriction(
  db: Db,
  organizationId: string,
  observation: RestrictionObservation,
  at: Date,
): Promise<boolean> {
  const org = await lockOrganization(db, organizationId);
  if (!org) return false;
  const current = restrictionStateOf({
    restriction_status: org.restriction_status,
    restriction_data: (org.restriction_data as RestrictionData | null) ?? null,
  });
  const step = nextRestrictionState(current, observation, Math.floor(at.getTime() / 1000));
  if (step.transitions.length === 0) return false;
  const columns = restrictionColumns(step.state);
  await db
    .updateTable('organizations')
    .set({
      restriction_status: columns.restriction_status,
      restriction_data:
        columns.restriction_data === null ? null : JSON.stringify(columns.restriction_data),
    })
    .where('id', '=', organizationId)
    .execute();
  await recordTransitions(db, organizationId, step.transitions);
  for (const transition of step.transitions) {
    await enqueueBillingEmail(
      db,
      organizationId,
      `${organizationId}:${transition.at}:${transition.from ?? 'none'}:${transition.to ?? 'none'}`,
      {
        kind: 'restriction.changed',
        from: transition.from,
        to: transition.to,
        overduePayment: transition.reason === 'payment_overdue',
        gracePeriodEnd: transition.grace_period_end,
        metrics: transition.metrics.map((metric) => USAGE_METRIC_DEFINITIONS[metric].name),
      },
    );
  }
  // A transition is recorded once (the same observation again changes nothing), so is its event.
  for (const [index, transition] of step.transitions.entries()) {
    await enqueueWebhookEvent(
      db,
      organizationId,
      'restriction.updated',
      {
        object: 'restriction',
        from: transition.from,
        to: transition.to,
        reason: transition.reason,
        metrics: transition.metrics,
        violations: transition.violations,
        grace_period_end: transition.grace_period_end,
        at: transition.at,
      },
      `${transition.at}:${transition.from}:${transition.to}:${transition.reason}:${index}`,
    );
  }
  return true;
}

/** Every organization with an overdue payment restricted (each one its own locked step). */
export async function enforceOverduePayments(db: Db, at: Date): Promise<string[]> {
  const restricted: string[] = [];
  for (const organizationId of await overdueCandidates(db, at)) {
    if (await restrictIfOverdue(db, organizationId, at)) restricted.push(organizationId);
  }
  return restricted;
}

const overdueCutoff = (at: Date) => new Date(at.getTime() - OVERDUE_AFTER_DAYS * DAY_MS);

async function overdueCount(db: Db, organizationId: string, at: Date): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'open')
    .where('finalized_at', '<=', overdueCutoff(at))
    .executeTakeFirst();
  return row?.count ?? 0;
}

/**
 * The organization's row lock, taken by every change of its restriction. FOR NO KEY UPDATE: rows that
 * reference the organization (usage events, invoices) take FOR KEY SHARE on it, which this does not
 * block, so ingestion and a cycle's close never wait on it or deadlock with it.
 */
export function lockOrganization(db: Db, organizationId: string) {
  return db
    .selectFrom('organizations')
    .select(['restriction_status', 'restriction_data'])
    .where('id', '=', organizationId)
    .forNoKeyUpdate()
    .executeTakeFirst();
}

/** Once nothing is overdue any more, the overdue violation goes, giving back what the usage had come to. */
export async function liftOverdueRestriction(
  db: Db,
  organizationId: string,
  at: Date,
): Promise<void> {
  // The organization's lock first (see restrictIfOverdue): a restriction being written right now
  // commits before this reads it, and is lifted here.
  const org = await lockOrganization(db, organizationId);
  if (!org) return;
  const data = org.restriction_data as RestrictionData | null;
  if (!data?.violations.includes('overdue_payment')) return;
  if ((await overdueCount(db, organizationId, at)) > 0) return;
  await observeRestriction(db, organizationId, { kind: 'overdue_payment_settled' }, at);
}
