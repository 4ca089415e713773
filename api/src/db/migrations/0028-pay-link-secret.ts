import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// Decision 019: the key that signs invoices' payment links, made once with the database
// so that reading a link never writes (and every replica signs alike).
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`INSERT INTO app_meta (key, value) VALUES ('pay_link_secret', ${randomBytes(32).toString('hex')})
    ON CONFLICT (key) DO NOTHING`.execute(db);
}
