import type { RestrictionHistoryEntry, RestrictionTransition } from '@meterline/domain';
import type { Db } from '../db/database.ts';
import { BILLING_JOB, recordAudit } from './record-audit.ts';

/** Records changes of the restriction state, in the transaction (and under the lock) that makes them. */
export async function recordTransitions(
  trx: Db,
  organizationId: string,
  transitions: readonly RestrictionTransition[],
): Promise<void> {
  if (transitions.length === 0) return;
  await trx
    .insertInto('restriction_transitions')
    .values(
      transitions.map((transition) => ({
        organization_id: organizationId,
        at: new Date(transition.at * 1000),
        from_status: transition.from,
        to_status: transition.to,
        reason: transition.reason,
        metrics: JSON.stringify(transition.metrics),
        violations: JSON.stringify(transition.violations),
        grace_period_end:
          transition.grace_period_end === null
            ? null
            : new Date(transition.grace_period_end * 1000),
      })),
    )
    .execute();
  // The engine decides restrictions (product decisions §11), whatever set it deciding.
  for (const transition of transitions) {
    await recordAudit(trx, BILLING_JOB, {
      organizationId,
      action: 'restriction.changed',
      target: { type: 'organization', id: organizationId },
      before: { status: transition.from },
      after: {
        status: transition.to,
        reason: transition.reason,
        grace_period_end: transition.grace_period_end,
      },
      at: new Date(transition.at * 1000),
    });
  }
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The organization's transitions, newest first (in recording order within one moment). */
export async function listTransitions(
  db: Db,
  organizationId: string,
  limit: number,
): Promise<RestrictionHistoryEntry[]> {
  const rows = await db
    .selectFrom('restriction_transitions')
    .select([
      'at',
      'from_status',
      'to_status',
      'reason',
      'metrics',
      'violations',
      'grace_period_end',
    ])
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
    metrics: row.metrics,
    violations: row.violations,
    grace_period_end: row.grace_period_end ? seconds(row.grace_period_end) : null,
  }));
}
