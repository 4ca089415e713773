import { PGlite } from '@electric-sql/pglite';
import { CompiledQuery, Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { PreparedPGliteDialect } from '../src/db/pglite-driver.ts';

/**
 * The embedded database's driver prepares statements once and then only binds them: it must give exactly
 * what PGlite's own `query` gives, and stay usable after errors, rollbacks and schema changes.
 */
describe('the embedded database driver', () => {
  let handle: DatabaseHandle;
  let reference: PGlite;

  beforeAll(async () => {
    handle = await openDatabase({});
    reference = await PGlite.create();
    const ddl = `CREATE TABLE things (
      id int PRIMARY KEY,
      name text NOT NULL,
      cents bigint,
      ratio numeric,
      at timestamptz,
      day date,
      tags text[],
      doc jsonb,
      ok boolean,
      uid uuid
    )`;
    await sql.raw(ddl).execute(handle.db);
    await reference.exec(ddl);
  });
  afterAll(async () => {
    await handle.close();
    await reference.close();
  });

  const row = {
    id: 1,
    name: 'first',
    cents: 9_007_199_254,
    ratio: '0.01344',
    at: new Date('2026-11-21T10:11:12.345Z'),
    day: '2026-11-21',
    tags: ['a', 'b,c', 'd"e'],
    doc: { nested: { list: [1, 2] }, text: 'é' },
    ok: true,
    uid: '6d3c1e9a-3f5b-4b8e-9a51-0f6b1f0c2d7e',
  };

  it('sends parameters and reads rows as PGlite does', async () => {
    const insert = `INSERT INTO things (id, name, cents, ratio, at, day, tags, doc, ok, uid)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
    const values = [
      row.id,
      row.name,
      row.cents,
      row.ratio,
      row.at,
      row.day,
      row.tags,
      row.doc,
      row.ok,
      row.uid,
    ];
    const inserted = await handle.db.executeQuery(CompiledQuery.raw(insert, values));
    expect(inserted.rows).toEqual([]);
    expect(inserted.numAffectedRows).toBe(1n);
    await handle.db.executeQuery(
      CompiledQuery.raw(
        insert,
        values.map((value, index) => (index === 0 ? 2 : value)),
      ),
    );
    await reference.query(insert, values);
    await reference.query(
      insert,
      values.map((value, index) => (index === 0 ? 2 : value)),
    );

    const select = 'SELECT * FROM things WHERE id = $1';
    for (const id of [1, 2, 1]) {
      const ours = await handle.db.executeQuery(CompiledQuery.raw(select, [id]));
      const theirs = await reference.query(select, [id]);
      expect(ours.rows).toEqual(theirs.rows);
    }
  });

  it('writes array parameters as PGlite does, whatever their elements hold', async () => {
    const select = `SELECT $1::text[] AS texts, $2::uuid[] AS uids, $3::int4[] AS ints,
      $4::numeric[] AS amounts, $5::int8[] AS big, $6::float8[] AS floats, $7::timestamptz[] AS times,
      $8::timestamptz[] AS dates, $9::text[] AS numbered, $10::text AS plain, $11::text[] AS empty,
      $12::jsonb[] AS docs`;
    const values = [
      [
        'plain',
        '',
        'NULL',
        null,
        'a,b',
        '{braces}',
        ' spaced ',
        'quote"d',
        'back\\slash',
        '\\"',
        'é 🧾',
      ],
      [row.uid, null],
      [1, -2, null, 2_147_483_647],
      ['0.01344', 12, '1e3', null],
      [9_007_199_254_740_991n, 5],
      [0.1, -1.5e-7, 3],
      ['2026-11-21T10:11:12.345Z', null, '2026-01-01 00:00:00+02'],
      [new Date('2026-11-21T10:11:12.345Z'), 1_700_000_000_000],
      [7, 'seven'],
      'multi-byte: é 🧾 ünïcode',
      [],
      [{ a: 'b"c' }, null],
    ];
    const ours = await handle.db.executeQuery(CompiledQuery.raw(select, values));
    const theirs = await reference.query(select, values);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.rows).toMatchObject([{ texts: values[0], plain: values[9] }]);
  });

  it('passes nulls both ways', async () => {
    await sql`INSERT INTO things (id, name, cents, doc) VALUES (${3}, ${'nulls'}, ${null}, ${null})`.execute(
      handle.db,
    );
    const { rows } = await sql<{
      cents: number | null;
      doc: unknown;
    }>`SELECT cents, doc FROM things WHERE id = ${3}`.execute(handle.db);
    expect(rows).toEqual([{ cents: null, doc: null }]);
  });

  it('counts the rows a statement changed', async () => {
    const updated = await sql`UPDATE things SET name = ${'renamed'} WHERE id <= ${2}`.execute(
      handle.db,
    );
    expect(updated.numAffectedRows).toBe(2n);
    const none = await sql`DELETE FROM things WHERE id = ${999}`.execute(handle.db);
    expect(none.numAffectedRows).toBe(0n);
  });

  it('reports an error with its code and stays usable afterwards', async () => {
    const duplicate = sql`INSERT INTO things (id, name) VALUES (${1}, ${'again'})`.execute(
      handle.db,
    );
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM things`.execute(
      handle.db,
    );
    expect(rows[0]?.n).toBe(3);
  });

  it('rolls a failed transaction back whole', async () => {
    const failing = handle.db.transaction().execute(async (trx) => {
      await sql`INSERT INTO things (id, name) VALUES (${10}, ${'in a transaction'})`.execute(trx);
      await sql`INSERT INTO things (id, name) VALUES (${1}, ${'duplicate'})`.execute(trx);
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM things WHERE id = ${10}`.execute(handle.db);
    expect(rows[0]?.n).toBe(0);
  });

  it('prepares a statement again when the table under it changed', async () => {
    const read = () =>
      sql<Record<string, unknown>>`SELECT * FROM things WHERE id = ${1}`.execute(handle.db);
    expect(Object.keys((await read()).rows[0] ?? {})).not.toContain('extra');
    await sql`ALTER TABLE things ADD COLUMN extra text DEFAULT 'added'`.execute(handle.db);
    expect((await read()).rows[0]).toMatchObject({ id: 1, extra: 'added' });
  });

  it('keeps working past the number of statements it keeps prepared', async () => {
    const db = new Kysely<unknown>({
      dialect: new PreparedPGliteDialect(await PGlite.create()),
    });
    for (let index = 0; index < 700; index++) {
      const { rows } = await sql<{
        value: number;
      }>`SELECT ${sql.raw(String(index))}::int + ${1}::int AS value`.execute(db);
      expect(rows[0]?.value).toBe(index + 1);
    }
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_prepared_statements`.execute(db);
    expect(rows[0]?.n).toBeLessThanOrEqual(500);
    await db.destroy();
  });
});
