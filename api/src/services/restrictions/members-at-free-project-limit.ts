import { reachedFreeProjectLimit, type FreeLimitMember } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { freeLimitCandidates } from '../../repositories/free-project-limit.ts';

/**
 * The owners and administrators of the organization who have reached their free project limit: what
 * GET /members/reached-free-project-limit answers, and what refuses a downgrade to Free while not empty.
 * Pass the transaction that changes the plan to read it under the same snapshot.
 */
export async function membersAtFreeProjectLimit(
  db: Db,
  organizationId: string,
): Promise<FreeLimitMember[]> {
  return reachedFreeProjectLimit(await freeLimitCandidates(db, organizationId));
}
