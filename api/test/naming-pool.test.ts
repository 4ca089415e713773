import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { NAMED_STATEMENTS } from '../src/db/naming-pool.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;

/**
 * On a PostgreSQL server each data statement is named by its text, so the server parses and plans it once
 * per connection: the answers must stay exactly those of unnamed statements, after schema changes too.
 */
describe.runIf(databaseUrl)('named statements on a PostgreSQL server', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({ databaseUrl, schema });
    await sql`CREATE TABLE things (id int PRIMARY KEY, name text NOT NULL)`.execute(handle.db);
    await sql`INSERT INTO things VALUES (1, 'first'), (2, 'second')`.execute(handle.db);
  });
  afterAll(async () => {
    await handle.close();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  const prepared = (connection: typeof handle.db) =>
    sql<{ statement: string }>`SELECT statement FROM pg_prepared_statements`.execute(connection);

  it('prepares a data statement once per connection and answers as before', async () => {
    await handle.db.connection().execute(async (connection) => {
      const read = () =>
        sql<{ name: string }>`SELECT name FROM things WHERE id = ${2}`.execute(connection);
      expect((await read()).rows).toEqual([{ name: 'second' }]);
      expect((await read()).rows).toEqual([{ name: 'second' }]);
      const statements = (await prepared(connection)).rows.map((row) => row.statement);
      expect(statements.filter((text) => text.includes('FROM things WHERE id = $1'))).toHaveLength(
        1,
      );
      // Transactions and DDL run unnamed.
      await sql`CREATE TEMPORARY TABLE scratch (id int)`.execute(connection);
      const after = (await prepared(connection)).rows.map((row) => row.statement);
      expect(after.some((text) => text.includes('CREATE TEMPORARY TABLE'))).toBe(false);
    });
  });

  it('answers with the new columns after the table changed under a prepared statement', async () => {
    await handle.db.connection().execute(async (connection) => {
      const readAll = () =>
        sql<Record<string, unknown>>`SELECT * FROM things WHERE id = ${1}`.execute(connection);
      expect((await readAll()).rows).toEqual([{ id: 1, name: 'first' }]);
      await sql`ALTER TABLE things ADD COLUMN note text DEFAULT 'added'`.execute(connection);
      expect((await readAll()).rows).toEqual([{ id: 1, name: 'first', note: 'added' }]);
    });
    // The connection that held the stale statement was let go; the next one answers too.
    const { rows } = await sql<
      Record<string, unknown>
    >`SELECT * FROM things WHERE id = ${1}`.execute(handle.db);
    expect(rows).toEqual([{ id: 1, name: 'first', note: 'added' }]);
  });

  it('names no more statements than its cap, however many texts there are', async () => {
    await handle.db.connection().execute(async (connection) => {
      for (let index = 0; index < NAMED_STATEMENTS + 50; index++) {
        const { rows } = await sql<{
          value: number;
        }>`SELECT ${sql.raw(String(index))}::int + ${1}::int AS value`.execute(connection);
        expect(rows[0]?.value).toBe(index + 1);
      }
      expect((await prepared(connection)).rows.length).toBeLessThanOrEqual(NAMED_STATEMENTS);
    });
  });
});
