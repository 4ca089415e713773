import { sql, type Kysely } from 'kysely';

/**
 * Superseded: migration 0032 drops these triggers with the read cache they served (decision 023).
 *
 * The tables the billing page's cached reads were made of. Every row written in them names
 * its organization on the `organization_changed` channel at commit (PostgreSQL sends a name once per
 * transaction), so a process keeping finished reads forgets that organization's before the writer's commit
 * returns (the read cache; the embedded database, which sets `meterline.notify_changes`). The usage
 * tables are not here: ingestion writes them in the statement that moves the subscription's billing_version.
 */
export const ORGANIZATION_CHANGE_TABLES = [
  'organizations',
  'subscriptions',
  'projects',
  'project_compute_resources',
  'project_addons',
  'spend_cap_toggles',
  'invoices',
] as const;

const WHEN = `WHEN (current_setting('meterline.notify_changes', true) = 'on')`;

const statements = [
  `CREATE FUNCTION notify_organization_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     changed uuid;
     before uuid;
   BEGIN
     IF TG_TABLE_NAME = 'organizations' THEN
       IF TG_OP <> 'DELETE' THEN changed := NEW.id; END IF;
       IF TG_OP <> 'INSERT' THEN before := OLD.id; END IF;
     ELSE
       IF TG_OP <> 'DELETE' THEN changed := NEW.organization_id; END IF;
       IF TG_OP <> 'INSERT' THEN before := OLD.organization_id; END IF;
     END IF;
     IF changed IS NOT NULL THEN PERFORM pg_notify('organization_changed', changed::text); END IF;
     IF before IS NOT NULL AND before IS DISTINCT FROM changed THEN
       PERFORM pg_notify('organization_changed', before::text);
     END IF;
     RETURN NULL;
   END
   $$`,
  // An empty name: every organization.
  `CREATE FUNCTION notify_every_organization_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('organization_changed', '');
     RETURN NULL;
   END
   $$`,
  ...ORGANIZATION_CHANGE_TABLES.flatMap((table) => [
    `CREATE TRIGGER ${table}_organization_changed
       AFTER INSERT OR UPDATE OR DELETE ON ${table}
       FOR EACH ROW ${WHEN} EXECUTE FUNCTION notify_organization_changed()`,
    `CREATE TRIGGER ${table}_every_organization_changed
       AFTER TRUNCATE ON ${table}
       FOR EACH STATEMENT ${WHEN} EXECUTE FUNCTION notify_every_organization_changed()`,
  ]),
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
