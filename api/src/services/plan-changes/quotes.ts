import { PRORATION_DATE_MAX_AGE_SECONDS, type Tier } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { pricedChangeFromJson, type FrozenChange } from './price-change.ts';

/**
 * Keeps what a preview showed, for as long as its proration date may come back with the change; the
 * organization's quotes past that are deleted on the way. A quote is the previewing member's: another
 * member's preview in the same second never changes what this one is charged. The same member's second
 * preview of the same tier in the same second replaces the first: their screen shows the newer one.
 */
export async function saveQuote(
  db: Db,
  organizationId: string,
  userId: string,
  priced: FrozenChange,
  now: Date,
): Promise<void> {
  const prorationDate = new Date(priced.at * 1000);
  const expiresAt = new Date(prorationDate.getTime() + PRORATION_DATE_MAX_AGE_SECONDS * 1000);
  await db
    .deleteFrom('plan_change_quotes')
    .where('organization_id', '=', organizationId)
    .where('expires_at', '<', now)
    .execute();
  await db
    .insertInto('plan_change_quotes')
    .values({
      organization_id: organizationId,
      user_id: userId,
      tier: priced.tier,
      proration_date: prorationDate,
      priced: JSON.stringify(priced),
      expires_at: expiresAt,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['organization_id', 'user_id', 'tier', 'proration_date'])
        .doUpdateSet((eb) => ({
          priced: eb.ref('excluded.priced'),
          expires_at: eb.ref('excluded.expires_at'),
        })),
    )
    .execute();
}

/**
 * The change a preview priced for this tier at this proration date (unix seconds), if it showed one: a
 * plan change, or a toggle of the spend cap (its `kind` says which).
 */
export async function findQuote(
  db: Db,
  organizationId: string,
  userId: string,
  tier: Tier,
  prorationDate: number,
): Promise<FrozenChange | undefined> {
  const row = await db
    .selectFrom('plan_change_quotes')
    .select('priced')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('tier', '=', tier)
    .where('proration_date', '=', new Date(prorationDate * 1000))
    .executeTakeFirst();
  return row ? pricedChangeFromJson(row.priced) : undefined;
}
