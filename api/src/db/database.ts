import { mkdirSync } from 'node:fs';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { migrations } from './migrations/index.ts';
import { NamingPool } from './naming-pool.ts';
import { PreparedPGliteDialect } from './pglite-driver.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent, the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Where the embedded database keeps its files; absent means in memory. */
  dataDir?: string | undefined;
  /** Run everything inside this schema (tests use one schema per server on a shared database). */
  schema?: string | undefined;
}

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Only on a store that this process alone writes (the embedded database): calls `listener` whenever a
   * committed statement changed who may access what (memberships, organization slugs; migration 0011),
   * before that statement's own call returns.
   */
  onAccessChange?: ((listener: () => void) => Promise<void>) | undefined;
  close(): Promise<void>;
}

/** The channel migration 0011's triggers notify. */
const ACCESS_CHANGED_CHANNEL = 'access_changed';

// Cents live in bigint columns; they stay far below 2^53, so numbers are exact.
const INT8_OID = 20;
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error(`Invalid schema name: ${schema}`);
  }
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    // A connection cut while idle (the server restarted, a failover) is an 'error' of the pool; without
    // a listener it would end the process. pg drops that connection and opens a new one when needed.
    pool.on('error', () => undefined);
    if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new NamingPool(pool) }),
    });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const unlock = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      parsers: { [pgliteTypes.INT8]: (value: string) => Number(value) },
    });
    if (schema) {
      await client.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET search_path TO ${schema}`);
    }
  } catch (error) {
    unlock();
    throw error;
  }
  const db = new Kysely<Database>({
    dialect: new PreparedPGliteDialect(client),
  });
  return {
    db,
    kind: 'pglite',
    // PGlite hands a commit's notifications to its listeners before that statement's promise settles.
    onAccessChange: async (listener) => {
      await client.listen(ACCESS_CHANGED_CHANNEL, listener);
    },
    close: async () => {
      try {
        await db.destroy();
      } finally {
        unlock();
      }
    },
  };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/** Another schema than ours vanished while the migrator listed the schemas. */
function droppedMeanwhile(error: unknown, schema: string | undefined): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    code === '3F000' &&
    typeof message === 'string' &&
    !(schema !== undefined && message.includes(`"${schema}"`))
  );
}

export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  let { error, results } = await migrator.migrateToLatest();
  // Kysely looks for its migration table by listing every schema of the database with
  // has_schema_privilege, which fails (3F000) when another schema is dropped during the listing (tests
  // drop theirs while others start). Nothing was migrated then: looking again is safe.
  for (let attempt = 0; attempt < 3 && droppedMeanwhile(error, schema); attempt += 1) {
    ({ error, results } = await migrator.migrateToLatest());
  }
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? 'unknown');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`, { cause: error });
  }
}
