import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';
import { cardLabel, enqueueBillingEmail } from './enqueue-email.ts';

/** "2026-11": the month a card expiry notice is for (UTC). */
export function expiryMonthOf(at: Date): { year: number; month: number; key: string } {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth() + 1;
  return { year, month, key: `${year}-${String(month).padStart(2, '0')}` };
}

/** The cards that expire in `at`'s month and whose organization has not been told yet. */
export async function cardsExpiringUnnoticed(
  db: Db,
  at: Date,
  onlyOrganizationId?: string,
): Promise<{ id: string; organizationId: string }[]> {
  const { year, month, key } = expiryMonthOf(at);
  let query = db
    .selectFrom('payment_methods')
    .select(['payment_methods.id', 'payment_methods.organization_id'])
    .where('exp_year', '=', year)
    .where('exp_month', '=', month)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('email_outbox')
            .select(sql`1`.as('one'))
            .whereRef(
              'email_outbox.event_key',
              '=',
              sql<string>`'card.expiring:' || payment_methods.id || ${`:${key}`}`,
            ),
        ),
      ),
    );
  if (onlyOrganizationId) query = query.where('organization_id', '=', onlyOrganizationId);
  const rows = await query.execute();
  return rows.map((row) => ({ id: row.id, organizationId: row.organization_id }));
}

/** Tells the billing recipients that a card expires this month: once per card and month. */
export async function noticeExpiringCard(db: Db, paymentMethodId: string, at: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const card = await trx
      .selectFrom('payment_methods')
      .select(['organization_id', 'exp_month', 'exp_year'])
      .where('id', '=', paymentMethodId)
      .executeTakeFirst();
    if (!card) return;
    const label = (await cardLabel(trx, paymentMethodId)) ?? 'card';
    await enqueueBillingEmail(
      trx,
      card.organization_id,
      `${paymentMethodId}:${expiryMonthOf(at).key}`,
      {
        kind: 'card.expiring',
        card: label,
        expMonth: card.exp_month,
        expYear: card.exp_year,
      },
    );
  });
}
