import type { EmailOutboxList, EmailOutboxQuery } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../db/database.ts';

/** The outbox, newest first, optionally for one recipient and since a moment (operators, mailbox). */
export async function listOutbox(db: Db, query: EmailOutboxQuery): Promise<EmailOutboxList> {
  let select = db
    .selectFrom('email_outbox')
    .leftJoin('organizations', 'organizations.id', 'email_outbox.organization_id')
    .select([
      'email_outbox.id',
      'email_outbox.recipient',
      'email_outbox.subject',
      'email_outbox.event',
      'organizations.slug',
      'email_outbox.created_at',
      'email_outbox.delivered_at',
      'email_outbox.attempts',
      'email_outbox.last_error',
    ])
    .orderBy('email_outbox.created_at', 'desc')
    .orderBy('email_outbox.id', 'desc')
    .limit(query.limit);
  if (query.to) {
    select = select.where(sql<string>`lower(email_outbox.recipient)`, '=', query.to.toLowerCase());
  }
  if (query.since) select = select.where('email_outbox.created_at', '>=', new Date(query.since));
  const rows = await select.execute();
  return {
    emails: rows.map((row) => ({
      id: row.id,
      to: row.recipient,
      subject: row.subject,
      event: row.event as EmailOutboxList['emails'][number]['event'],
      organization_slug: row.slug,
      created_at: row.created_at.toISOString(),
      delivered_at: row.delivered_at?.toISOString() ?? null,
      attempts: row.attempts,
      last_error: row.last_error,
    })),
  };
}

export function getOutboxEmail(db: Db, id: string) {
  return db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirst();
}
