import type {
  RestrictionReason,
  RestrictionStatus,
  RestrictionTransition,
  Violation,
} from '@meterline/domain';
import type { Db } from '../db/database.ts';

export interface TransitionRecord {
  at: Date;
  from: RestrictionStatus | null;
  to: RestrictionStatus | null;
  reason: RestrictionReason;
  violations: readonly Violation[];
  gracePeriodEnd: Date | null;
}

/** Records a change of the restriction state, in the transaction (and under the lock) that makes it. */
export async function recordTransition(
  trx: Db,
  organizationId: string,
  record: TransitionRecord,
): Promise<void> {
  await trx
    .insertInto('restriction_transitions')
    .values({
      organization_id: organizationId,
      at: record.at,
      from_status: record.from,
      to_status: record.to,
      reason: record.reason,
      violations: JSON.stringify(record.violations),
      grace_period_end: record.gracePeriodEnd,
    })
    .execute();
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The organization's transitions, newest first. */
export async function listTransitions(
  db: Db,
  organizationId: string,
  limit: number,
): Promise<RestrictionTransition[]> {
  const rows = await db
    .selectFrom('restriction_transitions')
    .select(['at', 'from_status', 'to_status', 'reason', 'violations', 'grace_period_end'])
    .where('organization_id', '=', organizationId)
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    at: seconds(row.at),
    from: row.from_status,
    to: row.to_status,
    reason: row.reason,
    violations: row.violations,
    grace_period_end: row.grace_period_end ? seconds(row.grace_period_end) : null,
  }));
}
