import { sql, type Kysely } from 'kysely';

// The simulator's 3-D Secure card 4000 0025 0000 3155 asks once: a card holder who authenticated when
// saving it is not asked again. The provider's 4000 0027 6000 3184 asks on every payment however it was
// saved; its behaviour gets a name the card table accepts.
const statements = [
  `ALTER TABLE simulator_payment_methods DROP CONSTRAINT IF EXISTS simulator_payment_methods_behaviour_check`,
  `ALTER TABLE simulator_payment_methods ADD CONSTRAINT simulator_payment_methods_behaviour_check
     CHECK (behaviour IN ('succeed', 'decline', 'insufficient_funds', 'expired', 'authenticate',
       'authenticate_always'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
