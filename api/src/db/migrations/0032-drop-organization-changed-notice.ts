import { sql, type Kysely } from 'kysely';

// The per-second read cache is gone (decision 020, superseded by decision 023): nothing listens for an
// organization's changes any more, so the triggers that announced them, and their functions, go too.
const TABLES = [
  'organizations',
  'subscriptions',
  'projects',
  'project_compute_resources',
  'project_addons',
  'spend_cap_toggles',
  'invoices',
] as const;

const statements = [
  ...TABLES.flatMap((table) => [
    `DROP TRIGGER IF EXISTS ${table}_organization_changed ON ${table}`,
    `DROP TRIGGER IF EXISTS ${table}_every_organization_changed ON ${table}`,
  ]),
  `DROP FUNCTION IF EXISTS notify_organization_changed()`,
  `DROP FUNCTION IF EXISTS notify_every_organization_changed()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
