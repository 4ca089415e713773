import { createHmac, timingSafeEqual } from 'node:crypto';
import { payLinkPath } from '@meterline/domain';
import type { Db } from '../db/database.ts';

const SECRET_KEY = 'pay_link_secret';

/**
 * The database's key for payment links, made by migration 0028. Kept in the database (not in the
 * process) so that every replica signs alike and a link in an email outlives a restart.
 */
export async function payLinkSecret(db: Db): Promise<string> {
  const row = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', SECRET_KEY)
    .executeTakeFirstOrThrow();
  return row.value;
}

/** The key of an invoice's payment link: it names the invoice and nothing else. */
export function payLinkKey(secret: string, invoiceId: string): string {
  return createHmac('sha256', secret).update(`pay-link:v1:${invoiceId}`).digest('base64url');
}

/** Whether `key` is the invoice's own, compared in constant time. */
export function payLinkMatches(secret: string, invoiceId: string, key: string): boolean {
  const expected = Buffer.from(payLinkKey(secret, invoiceId));
  const given = Buffer.from(key);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The signed link to the hosted invoice page, relative to the server's public address. */
export function signedPayLinkPath(secret: string, invoiceId: string, slug: string): string {
  return payLinkPath(invoiceId, slug, payLinkKey(secret, invoiceId));
}
