import { createHmac, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

// The simulator kept every card's full number, to decide the test-card behaviour when charging. It keeps
// no number now, as the provider hands none back: the behaviour is decided at tokenization, and the card
// keeps its last 4 digits and a fingerprint (HMAC-SHA256 of the number under a secret of this database).
// Existing cards are converted from their numbers. The table is copied rather than the column dropped:
// PostgreSQL keeps a dropped column's values in the rows already written, and dropping the old table
// deletes its files at commit. The new table also records when a card was detached from its customer.
//
// A migration does not change once shipped, so the test cards and the fingerprint are written out here as
// they were (adapters/simulator/cards.ts has the living ones).
const BEHAVIOURS: Record<string, string> = {
  '4000000000000002': 'decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired',
  '4000002500003155': 'authenticate',
};
const PEPPER_KEY = 'simulator_card_pepper';
const PAGE = 500;

const MOVE_ASIDE = [
  `ALTER TABLE simulator_payment_methods RENAME TO simulator_payment_methods_numbers`,
  `ALTER INDEX simulator_payment_methods_pkey RENAME TO simulator_payment_methods_numbers_pkey`,
  `CREATE TABLE simulator_payment_methods (
    id text PRIMARY KEY,
    brand text NOT NULL,
    last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
    fingerprint text NOT NULL,
    behaviour text NOT NULL
      CHECK (behaviour IN ('succeed', 'decline', 'insufficient_funds', 'expired', 'authenticate')),
    exp_month integer NOT NULL,
    exp_year integer NOT NULL,
    customer text,
    -- Removed from its customer: it may not be charged or attached again, as the provider's.
    detached_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
];

interface StoredCard {
  id: string;
  card_number: string;
  brand: string;
  exp_month: number;
  exp_year: number;
  customer: string | null;
  created_at: Date;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of MOVE_ASIDE) await sql.raw(statement).execute(db);

  await sql`INSERT INTO app_meta (key, value) VALUES (${PEPPER_KEY}, ${randomBytes(32).toString('hex')})
    ON CONFLICT (key) DO NOTHING`.execute(db);
  const { rows: peppers } = await sql<{ value: string }>`
    SELECT value FROM app_meta WHERE key = ${PEPPER_KEY}`.execute(db);
  const pepper = peppers[0]?.value;
  if (!pepper) throw new Error('The simulator card pepper was not stored');

  let after = '';
  for (;;) {
    const page = sql<StoredCard>`
      SELECT id, card_number, brand, exp_month, exp_year, customer, created_at
      FROM simulator_payment_methods_numbers WHERE id > ${after} ORDER BY id LIMIT ${PAGE}`;
    const { rows } = await page.execute(db);
    if (rows.length === 0) break;
    const values = rows.map(
      (card) => sql`(${card.id}, ${card.brand}, ${card.card_number.slice(-4)},
        ${createHmac('sha256', pepper).update(card.card_number).digest('hex')},
        ${BEHAVIOURS[card.card_number] ?? 'succeed'}, ${card.exp_month}, ${card.exp_year},
        ${card.customer}, ${card.created_at})`,
    );
    await sql`INSERT INTO simulator_payment_methods
      (id, brand, last4, fingerprint, behaviour, exp_month, exp_year, customer, created_at)
      VALUES ${sql.join(values)}`.execute(db);
    after = rows[rows.length - 1]?.id ?? after;
  }
  await sql`DROP TABLE simulator_payment_methods_numbers`.execute(db);
}
