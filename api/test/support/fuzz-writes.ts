import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * Which rows a request wrote. A row trigger on every table of the server's schema records each insert,
 * update and delete (and a statement trigger each truncate) in `fuzz_writes`, in the writer's own
 * transaction: a write rolled back leaves nothing, a committed one is there after the answer. Reading and
 * emptying it after each request tells what that request wrote, which a snapshot of every table per
 * request could tell too, at a hundred times the cost.
 */
export interface WriteLog {
  /** The writes since the last call, as `table operation` (an UPDATE of invoices: `invoices UPDATE`). */
  take(): Promise<string[]>;
}

export async function watchWrites(db: Db): Promise<WriteLog> {
  await sql`CREATE TABLE fuzz_writes (id bigserial PRIMARY KEY, entry text NOT NULL)`.execute(db);
  await sql
    .raw(
      `CREATE FUNCTION fuzz_note_write() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         INSERT INTO fuzz_writes (entry) VALUES (TG_TABLE_NAME || ' ' || TG_OP);
         RETURN NULL;
       END $$`,
    )
    .execute(db);
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'fuzz_writes'
  `.execute(db);
  for (const { name } of tables.rows) {
    const table = sql.id(name);
    await sql`CREATE TRIGGER fuzz_row_write AFTER INSERT OR UPDATE OR DELETE ON ${table}
      FOR EACH ROW EXECUTE FUNCTION fuzz_note_write()`.execute(db);
    await sql`CREATE TRIGGER fuzz_truncate AFTER TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION fuzz_note_write()`.execute(db);
  }
  if (tables.rows.length < 20) throw new Error(`only ${tables.rows.length} tables to watch`);
  return {
    async take() {
      const taken = await sql<{
        entry: string;
      }>`DELETE FROM fuzz_writes RETURNING entry`.execute(db);
      return taken.rows.map((row) => row.entry);
    },
  };
}
