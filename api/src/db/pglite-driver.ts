import { protocol, types, type PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { isDataStatement } from './data-statement.ts';

const { serialize } = protocol;
const {
  CommandCompleteMessage,
  DataRowMessage,
  ParameterDescriptionMessage,
  RowDescriptionMessage,
} = protocol.messages;

/** How many prepared statements the embedded database keeps (least recently used are closed first). */
const STATEMENT_CACHE_SIZE = 500;

/** Postgres refuses to run a prepared statement whose result columns changed under it (after DDL). */
const STALE_STATEMENT = '0A000';

interface Prepared {
  name: string;
  paramTypes: readonly number[];
  fields: readonly { name: string; dataTypeID: number }[];
}

/**
 * Array types whose elements PGlite writes as their plain text, strings as they are and numbers by
 * `String`: text, varchar, bpchar, uuid, int2, int4, int8, float4, float8, numeric.
 */
const PLAIN_ARRAY_TYPES = new Set([1009, 1015, 1014, 2951, 1005, 1007, 1016, 1021, 1022, 1231]);
/** date, timestamp, timestamptz: strings as they are (PGlite reads a number as epoch milliseconds). */
const TIME_ARRAY_TYPES = new Set([1182, 1115, 1185]);

const NEEDS_ESCAPE = /[\\"]/;
const ESCAPED = /[\\"]/g;

/**
 * The array literal PGlite's serializer would write, for a flat array of strings, numbers and nulls of
 * a plain type, written in one pass (PGlite escapes every element with two regular expressions, a cost
 * that shows on batches of thousands). Anything else is left to PGlite: undefined.
 */
function plainArrayLiteral(values: readonly unknown[], typeId: number): string | undefined {
  const numbers = PLAIN_ARRAY_TYPES.has(typeId);
  if (!numbers && !TIME_ARRAY_TYPES.has(typeId)) return undefined;
  const parts: string[] = [];
  for (const value of values) {
    if (value === null || value === undefined) parts.push('null');
    else if (numbers && (typeof value === 'number' || typeof value === 'bigint')) {
      parts.push(`"${String(value)}"`);
    } else if (typeof value === 'string') {
      parts.push(NEEDS_ESCAPE.test(value) ? `"${value.replace(ESCAPED, '\\$&')}"` : `"${value}"`);
    } else return undefined;
  }
  return `{${parts.join(',')}}`;
}

/**
 * A Bind message (all parameters and results as text), written with Node's native UTF-8 encoder:
 * PGlite's writer measures each string character by character in JavaScript.
 */
function bindMessage(statement: string, values: readonly (string | null)[]): Uint8Array {
  let length = 4 + 1 + Buffer.byteLength(statement) + 1 + 2 + 2 + 2;
  const sizes = values.map((value) => (value === null ? -1 : Buffer.byteLength(value)));
  for (const size of sizes) length += 4 + Math.max(size, 0);
  const message = Buffer.allocUnsafe(1 + length);
  let offset = message.write('B', 0, 'latin1');
  offset = message.writeInt32BE(length, offset);
  offset = message.writeUInt8(0, offset); // the unnamed portal
  offset += message.write(statement, offset);
  offset = message.writeUInt8(0, offset);
  offset = message.writeInt16BE(0, offset); // every parameter in text
  offset = message.writeInt16BE(values.length, offset);
  values.forEach((value, index) => {
    const size = sizes[index] ?? -1;
    offset = message.writeInt32BE(size, offset);
    if (value !== null) offset += message.write(value, offset);
  });
  message.writeInt16BE(0, offset); // every result column in text
  return message;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of parts) length += part.length;
  const message = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    message.set(part, offset);
    offset += part.length;
  }
  return message;
}

function affectedRows(command: string): bigint | undefined {
  const [verb, first, second] = command.split(' ');
  if (verb === 'INSERT' && second !== undefined) return BigInt(second);
  if ((verb === 'UPDATE' || verb === 'DELETE' || verb === 'MERGE') && first !== undefined) {
    return BigInt(first);
  }
  return undefined;
}

/**
 * Runs statements on a PGlite database, preparing each data statement once, by its text, and then only
 * binding and executing it: PGlite's own `query` parses, describes and plans every statement again, which
 * is most of the cost of a small query in WebAssembly. Parameters and rows go through PGlite's own
 * serializers and parsers, so values are exactly what `query` would give.
 */
class PreparedStatements {
  private readonly statements = new Map<string, Prepared>();
  private counter = 0;

  constructor(private readonly client: PGlite) {}

  async run(sql: string, parameters: readonly unknown[]): Promise<QueryResult<unknown>> {
    if (!isDataStatement(sql)) return this.unprepared(sql, parameters);
    try {
      return await this.execute(await this.prepare(sql), parameters);
    } catch (error) {
      if ((error as { code?: unknown }).code !== STALE_STATEMENT) throw error;
      // The schema changed under a prepared statement: prepare it again, once.
      await this.forget(sql);
      return this.execute(await this.prepare(sql), parameters);
    }
  }

  private async unprepared(sql: string, parameters: readonly unknown[]) {
    const result = await this.client.query(sql, [...parameters]);
    return result.affectedRows
      ? { rows: result.rows, numAffectedRows: BigInt(result.affectedRows) }
      : { rows: result.rows };
  }

  private async prepare(sql: string): Promise<Prepared> {
    const known = this.statements.get(sql);
    if (known) {
      // Most recently used last, so the first entry is the one to close when the cache is full.
      this.statements.delete(sql);
      this.statements.set(sql, known);
      return known;
    }
    const name = `ml_${++this.counter}`;
    const { messages } = await this.client.execProtocol(
      concat([
        serialize.parse({ name, text: sql, types: [] }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
    );
    const params = messages.find((m) => m instanceof ParameterDescriptionMessage);
    const row = messages.find((m) => m instanceof RowDescriptionMessage);
    const prepared: Prepared = {
      name,
      paramTypes: params?.dataTypeIDs ?? [],
      fields: row?.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID })) ?? [],
    };
    this.statements.set(sql, prepared);
    if (this.statements.size > STATEMENT_CACHE_SIZE) {
      const oldest = this.statements.keys().next().value;
      if (oldest !== undefined) await this.forget(oldest);
    }
    return prepared;
  }

  private async forget(sql: string): Promise<void> {
    const prepared = this.statements.get(sql);
    if (!prepared) return;
    this.statements.delete(sql);
    await this.client.execProtocol(
      concat([serialize.close({ type: 'S', name: prepared.name }), serialize.sync()]),
    );
  }

  private async execute(
    prepared: Prepared,
    parameters: readonly unknown[],
  ): Promise<QueryResult<unknown>> {
    const { serializers, parsers } = this.client;
    const values = parameters.map((value, index): string | null => {
      if (value === null || value === undefined) return null;
      const typeId = prepared.paramTypes[index] ?? 0;
      const literal = Array.isArray(value) ? plainArrayLiteral(value, typeId) : undefined;
      if (literal !== undefined) return literal;
      const serializer = serializers[typeId];
      return serializer ? String(serializer(value)) : String(value);
    });
    const { messages } = await this.client.execProtocol(
      concat([bindMessage(prepared.name, values), serialize.execute({}), serialize.sync()]),
    );
    const rows: unknown[] = [];
    let numAffectedRows: bigint | undefined;
    for (const message of messages) {
      if (message instanceof DataRowMessage) {
        const row: Record<string, unknown> = {};
        message.fields.forEach((value: string | null, index) => {
          const field = prepared.fields[index];
          if (field) row[field.name] = types.parseType(value, field.dataTypeID, parsers);
        });
        rows.push(row);
      } else if (message instanceof CommandCompleteMessage) {
        numAffectedRows = affectedRows(message.text);
      }
    }
    return numAffectedRows === undefined ? { rows } : { rows, numAffectedRows };
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly database: PreparedStatements) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    return (await this.database.run(compiled.sql, compiled.parameters)) as QueryResult<R>;
  }

  async *streamQuery<R>(
    compiled: CompiledQuery,
    chunkSize: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiled);
    for (let index = 0; index < rows.length; index += chunkSize) {
      yield { rows: rows.slice(index, index + chunkSize) };
    }
  }
}

/**
 * The embedded database as a single connection: callers queue for it, as they would for a pool of one.
 */
class PreparedPGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private busy = false;
  private readonly waiting: ((connection: DatabaseConnection) => void)[] = [];

  constructor(private readonly client: PGlite) {
    this.connection = new PGliteConnection(new PreparedStatements(client));
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.busy) {
      this.busy = true;
      return this.connection;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    const next = this.waiting.shift();
    if (next) next(this.connection);
    else this.busy = false;
  }

  async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    const begin = settings.isolationLevel
      ? `start transaction isolation level ${settings.isolationLevel}`
      : 'begin';
    await connection.executeQuery(CompiledQuery.raw(begin));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async destroy(): Promise<void> {
    await this.client.close();
  }
}

export class PreparedPGliteDialect implements Dialect {
  constructor(private readonly client: PGlite) {}

  createAdapter() {
    return new PostgresAdapter();
  }

  createDriver(): Driver {
    return new PreparedPGliteDriver(this.client);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
