import {
  auditLogCursor,
  auditLogExportQuerySchema,
  auditLogPageSchema,
  auditLogQuerySchema,
  errorResponseSchema,
  orgParamsSchema,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { EXPORT_RATE_LIMIT } from '../plugins/rate-limits.ts';
import { z } from 'zod';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { listAuditLog, toAuditLogEntry } from '../repositories/audit-log.ts';
import { AUDIT_LOG_CSV_COLUMNS, auditLogCsv } from '../services/exports/audit-log-csv.ts';
import { contentDisposition, csvFileName } from '../services/exports/csv-export.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const readAuditLog = {
  access: { kind: 'org', permission: 'billing_read:audit_log' },
} as const;
const FILTERS =
  "Filters: `action`, `actor` (a member's email, any case, or an actor id), `since` (inclusive) and " +
  '`until` (exclusive; a bare day includes that whole day), days or ISO 8601 date-times.';

/**
 * The audit log (product decisions §13): every billing change, newest first.
 * Owners and administrators read it; an access token does not (its scope reads billing data, and the log
 * names members and their addresses: decision 018).
 */
const auditLogRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (
  app,
  { db, clock },
) => {
  const base = '/platform/organizations/:slug/audit-log';

  app.get(
    base,
    {
      config: readAuditLog,
      schema: {
        tags: ['audit-log'],
        summary: 'The audit log, newest first, a page at a time',
        description:
          `${FILTERS} Send the answer's \`next_cursor\` as \`cursor\` for the next page (null: the ` +
          'last page); entries written meanwhile are newer and never shift a page.',
        params: orgParamsSchema,
        querystring: auditLogQuerySchema,
        response: { 200: auditLogPageSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const { cursor, limit, ...filters } = request.query;
      const page = await listAuditLog(db, organizationId, filters, { cursor, limit });
      const last = page.rows.at(-1);
      return {
        entries: page.rows.map(toAuditLogEntry),
        next_cursor: page.more && last ? auditLogCursor(last.created_at.getTime(), last.id) : null,
      };
    },
  );

  app.get(
    `${base}/export`,
    {
      config: { ...readAuditLog, rateLimit: EXPORT_RATE_LIMIT },
      schema: {
        tags: ['audit-log'],
        summary: 'The audit log as CSV (newest first), with the same filters',
        description:
          'RFC 4180, UTF-8 with a byte-order mark and a header row: ' +
          `${AUDIT_LOG_CSV_COLUMNS.join(', ')}. \`before\` and \`after\` are JSON; a cell a ` +
          `spreadsheet would run as a formula starts with an apostrophe. Streamed a batch at a time. ${FILTERS}`,
        params: orgParamsSchema,
        querystring: auditLogExportQuerySchema,
        produces: ['text/csv'],
        response: { 200: z.any().describe('text/csv'), 400: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId, slug } = requireOrg(request);
      const name = csvFileName(slug, 'audit-log', clock.now().toISOString().slice(0, 10));
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', contentDisposition(name))
        .header('cache-control', 'private, no-store')
        .send(auditLogCsv(db, organizationId, request.query));
    },
  );
};

export default auditLogRoutes;
