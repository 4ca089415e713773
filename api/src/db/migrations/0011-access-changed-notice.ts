import { sql, type Kysely } from 'kysely';

// Who may access what changes when a membership is added, changed or removed, or an organization is renamed
// or deleted (the demo reset deletes and recreates them). Each such statement announces it on the
// `access_changed` channel at commit, whoever runs it, so a process that keeps the access guard's answers
// forgets them before the writer's commit returns (the embedded database; database.ts listens).
const statements = [
  `CREATE FUNCTION notify_access_changed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM pg_notify('access_changed', '');
     RETURN NULL;
   END
   $$`,
  `CREATE TRIGGER memberships_access_changed
     AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
     FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed()`,
  `CREATE TRIGGER organizations_access_changed
     AFTER UPDATE OF slug OR DELETE OR TRUNCATE ON organizations
     FOR EACH STATEMENT EXECUTE FUNCTION notify_access_changed()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
