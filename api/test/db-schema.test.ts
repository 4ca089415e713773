import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { testDatabases } from './support/server.ts';

const SCHEMA_FILE = fileURLToPath(new URL('../src/db/schema.ts', import.meta.url));

interface ColumnShape {
  /** Whether a read row may hold null; `unknown` says nothing either way (JSON read as it is). */
  nullable: boolean | 'unknown';
}

type Tables = Map<string, Map<string, ColumnShape>>;

/**
 * The tables `db/schema.ts` declares (`Database`), each column with whether the row Kysely reads
 * (`Selectable`) may hold null: read with TypeScript's checker from a probe file beside it, so generic
 * column types (ColumnType, Generated, Json) are resolved as the compiler resolves them.
 */
function declaredTables(): Tables {
  const probe = SCHEMA_FILE.replace(/schema\.ts$/, '__schema-probe.ts');
  const source = [
    "import type { Selectable } from 'kysely';",
    "import type { Database } from './schema.ts';",
    'export declare const rows: { [T in keyof Database]: Selectable<Database[T]> };',
  ].join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    allowImportingTsExtensions: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  host.readFile = (name) => (name === probe ? source : readFile(name));
  host.fileExists = (name) => name === probe || fileExists(name);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language) =>
    name === probe
      ? ts.createSourceFile(name, source, language, true)
      : getSourceFile(name, language);
  const program = ts.createProgram([probe], options, host);
  const checker = program.getTypeChecker();
  const file = program.getSourceFile(probe);
  if (!file) throw new Error('The probe was not compiled');
  const symbol = checker.getSymbolAtLocation(file);
  const rows = symbol && checker.getExportsOfModule(symbol).find((s) => s.name === 'rows');
  if (!rows) throw new Error('The probe exports no rows');
  const tables: Tables = new Map();
  for (const table of checker.getTypeOfSymbol(rows).getProperties()) {
    const columns = new Map<string, ColumnShape>();
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const type = checker.getTypeOfSymbol(column);
      const parts = type.isUnion() ? type.types : [type];
      const opaque = parts.some(
        (part) => (part.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) !== 0,
      );
      columns.set(column.name, {
        nullable: opaque ? 'unknown' : parts.some((part) => (part.flags & ts.TypeFlags.Null) !== 0),
      });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

async function migratedTables(handle: DatabaseHandle): Promise<Tables> {
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    SELECT c.table_name, c.column_name, c.is_nullable
    FROM information_schema.columns AS c
    JOIN information_schema.tables AS t
      ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
      AND c.table_name NOT LIKE 'kysely\\_%'
  `.execute(handle.db);
  const tables: Tables = new Map();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? new Map<string, ColumnShape>();
    columns.set(row.column_name, { nullable: row.is_nullable === 'YES' });
    tables.set(row.table_name, columns);
  }
  return tables;
}

const sorted = (tables: Tables) =>
  Object.fromEntries(
    [...tables.keys()]
      .sort()
      .map((name) => [
        name,
        Object.fromEntries([...(tables.get(name) ?? [])].sort(([a], [b]) => a.localeCompare(b))),
      ]),
  );

/** `db/schema.ts` mirrors the migrations by hand: a column added, dropped or made nullable shows here. */
describe.each(testDatabases())('db/schema.ts against the migrated database (%s)', (database) => {
  const schema = database === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({
      databaseUrl: database === 'postgres' ? process.env.TEST_DATABASE_URL : undefined,
      schema,
    });
    await migrateToLatest(handle.db, schema);
  });
  afterAll(async () => {
    await handle.close();
    if (schema && process.env.TEST_DATABASE_URL) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });

  it('declares every table and column the migrations make, each nullable exactly when it is', async () => {
    const declared = declaredTables();
    const migrated = await migratedTables(handle);
    // A column read as `unknown` may be either: it takes the database's word.
    for (const [table, columns] of declared) {
      for (const [name, shape] of columns) {
        const actual = migrated.get(table)?.get(name);
        if (shape.nullable === 'unknown' && actual) columns.set(name, actual);
      }
    }
    expect(sorted(declared)).toEqual(sorted(migrated));
  });
});
