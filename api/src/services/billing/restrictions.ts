import type { RestrictionData, Violation } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { recordTransition } from '../../repositories/restriction-transitions.ts';

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
    const org = await lockOrganization(trx, organizationId);
    if (!org || (await overdueCount(trx, organizationId, at)) === 0) return false;
    const data = (org.restriction_data as RestrictionData | null) ?? null;
    if (org.restriction_status === 'restricted' && data?.violations.includes('overdue_payment')) {
      return false;
    }
    const violations: Violation[] = [
      ...new Set([...(data?.violations ?? []), 'overdue_payment' as const]),
    ];
    await trx
      .updateTable('organizations')
      .set({
        restriction_status: 'restricted',
        restriction_data: JSON.stringify({ grace_period_end: null, violations }),
      })
      .where('id', '=', organizationId)
      .execute();
    await recordTransition(trx, organizationId, {
      at,
      from: org.restriction_status,
      to: 'restricted',
      reason: 'payment_overdue',
      violations,
      gracePeriodEnd: null,
    });
    return true;
  });
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

function lockOrganization(db: Db, organizationId: string) {
  return db
    .selectFrom('organizations')
    .select(['restriction_status', 'restriction_data'])
    .where('id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
}

/** Once nothing is overdue any more, the overdue violation goes, and with the last violation the restriction. */
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
  const violations = data.violations.filter((violation) => violation !== 'overdue_payment');
  const to = violations.length === 0 ? null : org.restriction_status;
  await db
    .updateTable('organizations')
    .set(
      to === null
        ? { restriction_status: null, restriction_data: null }
        : { restriction_data: JSON.stringify({ ...data, violations }) },
    )
    .where('id', '=', organizationId)
    .execute();
  await recordTransition(db, organizationId, {
    at,
    from: org.restriction_status,
    to,
    reason: 'overdue_payment_settled',
    violations,
    gracePeriodEnd: data.grace_period_end === null ? null : new Date(data.grace_period_end * 1000),
  });
}
