import {
  auditLogMoment,
  parseAuditLogCursor,
  type AuditLogEntry,
  type AuditLogExportQuery,
} from '@meterline/domain';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { AuditLogTable } from '../db/schema.ts';

export type AuditLogRow = Selectable<AuditLogTable>;

/** The organization's entries matching the filters, newest first in (created_at, id) order. */
function matching(db: Db, organizationId: string, filters: AuditLogExportQuery) {
  let query = db
    .selectFrom('audit_log')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
  if (filters.action) query = query.where('action', '=', filters.action);
  if (filters.actor) {
    const actor = filters.actor;
    // An email is matched whatever its case; anything else is an actor's id.
    query = actor.includes('@')
      ? query.where(sql<string>`lower(actor_email)`, '=', actor.toLowerCase())
      : query.where('actor_id', '=', actor);
  }
  if (filters.since) {
    query = query.where('created_at', '>=', new Date(auditLogMoment(filters.since, 'since')));
  }
  if (filters.until) {
    query = query.where('created_at', '<', new Date(auditLogMoment(filters.until, 'until')));
  }
  return query;
}

/** Strictly after the cursor's entry in the page order: older, or as old with a smaller id. */
function after(
  query: ReturnType<typeof matching>,
  cursor: { createdAtMs: number; id: string } | null,
) {
  if (!cursor) return query;
  const at = new Date(cursor.createdAtMs);
  return query.where((eb) =>
    eb.or([
      eb('created_at', '<', at),
      eb.and([eb('created_at', '=', at), eb('id', '<', cursor.id)]),
    ]),
  );
}

/**
 * One page: `limit` entries after the cursor, and whether more follow (one more row is read to know).
 * Keyset paging: a page is defined by the last entry seen, not by an offset, so entries written while a
 * reader pages (newer than everything it has seen) move nothing under it.
 */
export async function listAuditLog(
  db: Db,
  organizationId: string,
  filters: AuditLogExportQuery,
  page: { cursor: string | undefined; limit: number },
): Promise<{ rows: AuditLogRow[]; more: boolean }> {
  const cursor = page.cursor ? parseAuditLogCursor(page.cursor) : null;
  const rows = await after(matching(db, organizationId, filters), cursor)
    .limit(page.limit + 1)
    .execute();
  return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
}

/** Every matching entry, a batch at a time along the same order (the export's constant memory). */
export async function* auditLogBatches(
  db: Db,
  organizationId: string,
  filters: AuditLogExportQuery,
  batch = 1000,
): AsyncGenerator<AuditLogRow> {
  let cursor: { createdAtMs: number; id: string } | null = null;
  for (;;) {
    const rows = await after(matching(db, organizationId, filters), cursor)
      .limit(batch)
      .execute();
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    cursor = { createdAtMs: last.created_at.getTime(), id: last.id };
  }
}

export function toAuditLogEntry(row: AuditLogRow): AuditLogEntry {
  return {
    id: row.id,
    actor: { type: row.actor_type, id: row.actor_id, email: row.actor_email },
    action: row.action as AuditLogEntry['action'],
    target: { type: row.target_type as AuditLogEntry['target']['type'], id: row.target_id },
    before: row.before,
    after: row.after,
    ip: row.ip,
    user_agent: row.user_agent,
    created_at: Math.floor(row.created_at.getTime() / 1000),
  };
}
