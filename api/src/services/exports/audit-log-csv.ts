import type { Readable } from 'node:stream';
import { describeAuditEntry, type AuditLogExportQuery } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { auditLogBatches, toAuditLogEntry } from '../../repositories/audit-log.ts';
import { csvStream } from './csv-export.ts';

export const AUDIT_LOG_CSV_COLUMNS = [
  'time',
  'actor_type',
  'actor_id',
  'actor_email',
  'action',
  'description',
  'target_type',
  'target_id',
  'before',
  'after',
  'ip',
  'user_agent',
  'id',
] as const;

async function* auditRows(db: Db, organizationId: string, filters: AuditLogExportQuery) {
  // A card an entry names that the organization no longer holds reads as removed, as on the page.
  const onFile = await db
    .selectFrom('payment_methods')
    .select('id')
    .where('organization_id', '=', organizationId)
    .execute();
  const cardsOnFile = new Set(onFile.map((method) => method.id));
  for await (const row of auditLogBatches(db, organizationId, filters)) {
    const entry = toAuditLogEntry(row);
    yield [
      row.created_at.toISOString(),
      entry.actor.type,
      entry.actor.id,
      entry.actor.email,
      entry.action,
      describeAuditEntry(entry, { cardsOnFile }),
      entry.target.type,
      entry.target.id,
      entry.before ? JSON.stringify(entry.before) : null,
      entry.after ? JSON.stringify(entry.after) : null,
      entry.ip,
      entry.user_agent,
      entry.id,
    ] as const;
  }
}

/** The audit log's matching entries as CSV, newest first, read a batch at a time. */
export function auditLogCsv(
  db: Db,
  organizationId: string,
  filters: AuditLogExportQuery,
): Readable {
  return csvStream(AUDIT_LOG_CSV_COLUMNS, auditRows(db, organizationId, filters));
}
