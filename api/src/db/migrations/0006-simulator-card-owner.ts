import { sql, type Kysely } from 'kysely';

// The simulator's cards know their customer (an organization), as the provider's payment methods do: a
// card tokenized for a one-off payment has none; a card saved by a setup or by the demo seed has its
// organization's. Existing cards take theirs from the setup that saved them or from the card list.
const statements = [
  `ALTER TABLE simulator_payment_methods ADD COLUMN customer text`,
  `UPDATE simulator_payment_methods AS card
     SET customer = setup.metadata->>'organization_id'
     FROM simulator_setup_intents AS setup
     WHERE setup.payment_method_id = card.id`,
  `UPDATE simulator_payment_methods AS card
     SET customer = saved.organization_id::text
     FROM payment_methods AS saved
     WHERE saved.provider = 'simulator'
       AND saved.provider_payment_method_id = card.id
       AND card.customer IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
