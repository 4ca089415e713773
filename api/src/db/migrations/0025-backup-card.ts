import { sql, type Kysely } from 'kysely';

// Decision 016: the backup card. At most one card of an organization is the backup
// (a partial unique index, as for the default), and never the default at the same time (a check). A
// charge of the backup names the default card's declined charge it stands in for (`backup_of_charge_id`,
// unique): the database itself allows one backup charge per declined charge, whoever runs the engine.
const statements = [
  `ALTER TABLE payment_methods ADD COLUMN is_backup boolean NOT NULL DEFAULT false`,
  `ALTER TABLE payment_methods ADD CONSTRAINT payment_methods_backup_not_default
    CHECK (NOT (is_backup AND is_default))`,
  `CREATE UNIQUE INDEX payment_methods_one_backup ON payment_methods(organization_id) WHERE is_backup`,
  `ALTER TABLE charges ADD COLUMN backup_of_charge_id text REFERENCES charges(id)`,
  `CREATE UNIQUE INDEX charges_one_backup_per_decline ON charges(backup_of_charge_id)
    WHERE backup_of_charge_id IS NOT NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
