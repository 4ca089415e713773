import { z } from 'zod/mini';
import { documented } from './metadata.ts';
import { AUDIT_ACTIONS, AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES } from '../audit/actions.ts';
import { PRINTABLE_ASCII, unixSecondsSchema } from './common.ts';

/** The moments the log can be asked about: anything outside is no moment of this product's life. */
export const AUDIT_LOG_FIRST_DAY = '2000-01-01';
export const AUDIT_LOG_LAST_DAY = '2100-12-31';
export const AUDIT_LOG_PAGE_DEFAULT = 50;
export const AUDIT_LOG_PAGE_MAX = 100;

/**
 * A page's cursor: the last entry's time (milliseconds) and id, "1763640000123.aud_…". The page after it
 * holds the entries strictly older in (created_at, id) order: entries written meanwhile are newer, so a
 * walk through the pages never skips or repeats one.
 */
const CURSOR = /^(\d{1,15})\.(aud_[0-9a-f]{24})$/;

export function auditLogCursor(createdAtMs: number, id: string): string {
  return `${createdAtMs}.${id}`;
}

export function parseAuditLogCursor(cursor: string): { createdAtMs: number; id: string } | null {
  const match = CURSOR.exec(cursor);
  if (!match?.[1] || !match[2]) return null;
  return { createdAtMs: Number(match[1]), id: match[2] };
}

/**
 * A day (YYYY-MM-DD, its start in UTC) or an ISO 8601 date-time with its offset. `until` of a bare day
 * includes that whole day (it reads as the next day's start, exclusive).
 */
const MOMENT = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

function momentSchema(label: string) {
  return documented(
    z
      .string()
      .check(z.maxLength(35, `${label} must be a day (YYYY-MM-DD) or an ISO 8601 date-time`))
      .check(z.regex(MOMENT, `${label} must be a day (YYYY-MM-DD) or an ISO 8601 date-time`))
      .check(
        z.refine((value) => {
          // zod runs this after a failed pattern too: the pattern's message is the one that counts.
          if (!MOMENT.test(value)) return true;
          // A day that is no day (2026-02-30) is refused, not rolled over.
          const day = value.slice(0, 10);
          const start = new Date(`${day}T00:00:00Z`);
          return (
            !Number.isNaN(Date.parse(value)) &&
            !Number.isNaN(start.getTime()) &&
            start.toISOString().slice(0, 10) === day
          );
        }, `${label} must be a real day and time`),
      )
      .check(
        z.refine((value) => {
          if (!MOMENT.test(value)) return true;
          const day = value.slice(0, 10);
          return day >= AUDIT_LOG_FIRST_DAY && day <= AUDIT_LOG_LAST_DAY;
        }, `${label} must be between ${AUDIT_LOG_FIRST_DAY} and ${AUDIT_LOG_LAST_DAY}`),
      ),
    {
      description: `A day (YYYY-MM-DD, UTC) or an ISO 8601 date-time with offset, ${AUDIT_LOG_FIRST_DAY} to ${AUDIT_LOG_LAST_DAY}`,
    },
  );
}

/** The moment a `since` or `until` stands for, in milliseconds (a bare `until` day: the next day's start). */
export function auditLogMoment(value: string, bound: 'since' | 'until'): number {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    return bound === 'until' ? start + 86_400_000 : start;
  }
  return Date.parse(value);
}

const auditFilterShape = {
  action: documented(
    z.optional(z.enum(AUDIT_ACTIONS, { error: 'action must be one of the audit log actions' })),
    { description: 'Only entries of this action' },
  ),
  actor: documented(
    z.optional(
      z
        .string()
        .check(z.trim())
        .check(z.minLength(1, 'actor must not be empty'))
        .check(z.maxLength(254, 'actor must be at most 254 characters'))
        .check(z.regex(PRINTABLE_ASCII, 'actor must be an email address or an id, without spaces')),
    ),
    { description: "Only entries of this actor: a member's email (any case) or an actor id" },
  ),
  since: z.optional(momentSchema('since')),
  until: z.optional(momentSchema('until')),
};

const sinceBeforeUntil = (query: { since?: string | undefined; until?: string | undefined }) =>
  !query.since ||
  !query.until ||
  auditLogMoment(query.since, 'since') < auditLogMoment(query.until, 'until');
const SINCE_AFTER_UNTIL = { message: 'until must be after since', path: ['until'] };

/** GET /audit-log/export: the filters alone (the export holds every matching entry). */
export const auditLogExportQuerySchema = z
  .object(auditFilterShape)
  .check(z.refine(sinceBeforeUntil, SINCE_AFTER_UNTIL));
export type AuditLogExportQuery = z.output<typeof auditLogExportQuerySchema>;

/** GET /audit-log: newest first, a page at a time. */
export const auditLogQuerySchema = z
  .object({
    ...auditFilterShape,
    cursor: documented(
      z.optional(
        z
          .string()
          .check(z.maxLength(60, 'cursor is not valid'))
          .check(z.regex(CURSOR, 'cursor is not valid')),
      ),
      { description: "The previous page's next_cursor" },
    ),
    limit: z._default(
      z.coerce
        .number()
        .check(z.int('limit must be a whole number'))
        .check(z.gte(1, `limit must be between 1 and ${AUDIT_LOG_PAGE_MAX}`))
        .check(z.lte(AUDIT_LOG_PAGE_MAX, `limit must be between 1 and ${AUDIT_LOG_PAGE_MAX}`)),
      AUDIT_LOG_PAGE_DEFAULT,
    ),
  })
  .check(z.refine(sinceBeforeUntil, SINCE_AFTER_UNTIL));
export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;
export type AuditLogFilters = Omit<z.input<typeof auditLogQuerySchema>, 'cursor' | 'limit'>;

const changedFieldsSchema = documented(z.nullable(z.record(z.string(), z.unknown())), {
  description: 'The changed fields (never a secret, never a card number: brand and last 4 digits)',
});

export const auditLogEntrySchema = documented(
  z.object({
    id: z.string(),
    actor: z.object({
      type: z.enum(AUDIT_ACTOR_TYPES),
      /** The member's or token's id; null for the billing job. */
      id: z.nullable(z.string()),
      /** The member's email when the change was made; null for the others. */
      email: z.nullable(z.string()),
    }),
    action: z.enum(AUDIT_ACTIONS),
    target: z.object({ type: z.enum(AUDIT_TARGET_TYPES), id: z.nullable(z.string()) }),
    before: changedFieldsSchema,
    after: changedFieldsSchema,
    ip: z.nullable(z.string()),
    user_agent: z.nullable(z.string()),
    created_at: unixSecondsSchema,
  }),
  { id: 'AuditLogEntry' },
);
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;

export const auditLogPageSchema = documented(
  z.object({
    entries: z.array(auditLogEntrySchema),
    /** Null on the last page. */
    next_cursor: z.nullable(z.string()),
  }),
  { id: 'AuditLogPage' },
);
export type AuditLogPage = z.infer<typeof auditLogPageSchema>;
