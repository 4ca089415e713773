import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { isDataStatement } from './data-statement.ts';

/** How many distinct statements get a name: each connection keeps every named statement it has used. */
export const NAMED_STATEMENTS = 400;
const statementNames = new Map<string, string>();

/** PostgreSQL's answer to a prepared statement whose result columns changed under it. */
const STALE_STATEMENT = '0A000';

function statementName(text: string): string | undefined {
  if (!isDataStatement(text)) return undefined;
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < NAMED_STATEMENTS) {
    name = `ml_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Connections that name each data statement by its text, so PostgreSQL parses and plans it once per
 * connection and then only binds and runs it (an unnamed statement is parsed and planned on every call).
 * Names are shared by all connections and capped: past the cap, new texts (an IN list of a new length)
 * run unnamed, so no connection keeps more than the cap.
 */
export class NamingPool implements PostgresPool {
  constructor(private readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    // Set when the schema changed under a named statement: the connection is closed on release.
    let stale = false;
    const run = <R>(text: string, values: unknown[], name?: string) =>
      // pg types `command` as a plain string; Kysely names the five it reads.
      client.query<R & pg.QueryResultRow>(
        name ? { name, text, values } : { text, values },
      ) as Promise<PostgresQueryResult<R>>;
    async function named<R>(text: string, values: unknown[], name: string) {
      try {
        return await run<R>(text, values, name);
      } catch (error) {
        // PostgreSQL refuses a prepared statement whose result columns changed (after a migration):
        // run it unnamed, and let the connection go with its stale statements.
        if ((error as { code?: unknown }).code !== STALE_STATEMENT) throw error;
        stale = true;
        return run<R>(text, values);
      }
    }
    function query<R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>>;
    function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
    function query<R>(
      sqlOrCursor: string | PostgresCursor<R>,
      parameters?: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
      if (typeof sqlOrCursor !== 'string') {
        return client.query(sqlOrCursor as pg.Submittable & PostgresCursor<R>);
      }
      const values = [...(parameters ?? [])];
      const name = stale ? undefined : statementName(sqlOrCursor);
      return name ? named<R>(sqlOrCursor, values, name) : run<R>(sqlOrCursor, values);
    }
    return { query, release: () => client.release(stale || undefined) };
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}
