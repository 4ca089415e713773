/**
 * Statements worth preparing once and running many times: plain data statements. Anything else (BEGIN,
 * DDL, SET) runs unprepared, on the embedded database and on a PostgreSQL server alike.
 */
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;

export function isDataStatement(sql: string): boolean {
  return DATA_STATEMENT.test(sql);
}
