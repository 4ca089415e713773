import type { RestrictionData, Violation } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export const OVERDUE_AFTER_DAYS = 14;
const DAY_MS = 86_400_000;

/** Restricts organizations with an invoice still unpaid 14 days after finalization. */
export async function enforceOverduePayments(db: Db, at: Date): Promise<string[]> {
  const cutoff = new Date(at.getTime() - OVERDUE_AFTER_DAYS * DAY_MS);
  const overdue = await db
    .selectFrom('invoices')
    .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
    .select([
      'organizations.id',
      'organizations.restriction_status',
      'organizations.restriction_data',
    ])
    .distinct()
    .where('invoices.status', '=', 'open')
    .where('invoices.finalized_at', '<=', cutoff)
    .execute();
  const restricted: string[] = [];
  for (const org of overdue) {
    const data = (org.restriction_data as RestrictionData | null) ?? null;
    if (org.restriction_status === 'restricted' && data?.violations.includes('overdue_payment'))
      continue;
    const violations: Violation[] = [
      ...new Set([...(data?.violations ?? []), 'overdue_payment' as const]),
    ];
    await db
      .updateTable('organizations')
      .set({
        restriction_status: 'restricted',
        restriction_data: JSON.stringify({ grace_period_end: null, violations }),
      })
      .where('id', '=', org.id)
      .execute();
    restricted.push(org.id);
  }
  return restricted;
}

/** Once nothing is overdue any more, the overdue violation goes, and with the last violation the restriction. */
export async function liftOverdueRestriction(
  db: Db,
  organizationId: string,
  at: Date,
): Promise<void> {
  const cutoff = new Date(at.getTime() - OVERDUE_AFTER_DAYS * DAY_MS);
  const stillOverdue = await db
    .selectFrom('invoices')
    .select(sql<number>`count(*)::int`.as('count'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'open')
    .where('finalized_at', '<=', cutoff)
    .executeTakeFirst();
  if ((stillOverdue?.count ?? 0) > 0) return;
  const org = await db
    .selectFrom('organizations')
    .select(['restriction_status', 'restriction_data'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const data = org.restriction_data as RestrictionData | null;
  if (!data?.violations.includes('overdue_payment')) return;
  const violations = data.violations.filter((violation) => violation !== 'overdue_payment');
  await db
    .updateTable('organizations')
    .set(
      violations.length === 0
        ? { restriction_status: null, restriction_data: null }
        : { restriction_data: JSON.stringify({ ...data, violations }) },
    )
    .where('id', '=', organizationId)
    .execute();
}
