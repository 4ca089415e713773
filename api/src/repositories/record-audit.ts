import { randomBytes } from 'node:crypto';
import type { AuditAction, AuditActorType, AuditTargetType } from '@meterline/domain';
import type { Db } from '../db/database.ts';

/**
 * Who made a change and from where. Built from the request (plugins/audit-context),
 * or one of the constants below for the engine and the operator's CLI. A change finished after its
 * request (a payment settled by the provider's event) keeps the context of the request that started it
 * (`audit_context` of the charge, plan change or setup intent): it holds no secret, only who and where.
 */
export interface AuditContext {
  actor: { type: AuditActorType; id: string | null; email: string | null };
  ip: string | null;
  user_agent: string | null;
}

export const BILLING_JOB: AuditContext = {
  actor: { type: 'billing_job', id: null, email: null },
  ip: null,
  user_agent: null,
};

/** The operator's command line (`npm run billing -- void-invoice`) and the demo world's story. */
export const OPERATOR_CLI: AuditContext = {
  actor: { type: 'operator', id: 'cli', email: null },
  ip: null,
  user_agent: null,
};

export interface AuditEntry {
  organizationId: string;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null };
  /** The changed fields as they were and as they are; never a secret, never a card number. */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  /** When the change happened (the clock of the code that made it). */
  at: Date;
}

/** A stored context (jsonb), or the billing job's when there is none (the engine started it). */
export function storedAuditContext(value: unknown): AuditContext {
  if (!value || typeof value !== 'object') return BILLING_JOB;
  const stored = value as Partial<AuditContext>;
  return stored.actor ? { ...BILLING_JOB, ...stored } : BILLING_JOB;
}

/** What a charge, plan change or setup intent keeps of its request (jsonb). */
export function auditContextJson(context: AuditContext | undefined): string | null {
  return context ? JSON.stringify(context) : null;
}

export function newAuditId(): string {
  return `aud_${randomBytes(12).toString('hex')}`;
}

/**
 * Writes one audit entry, in the caller's transaction: the change and its record commit together or not
 * at all. The table refuses UPDATE and DELETE (migration 0027).
 */
export async function recordAudit(
  trx: Db,
  context: AuditContext,
  entry: AuditEntry,
): Promise<void> {
  await trx
    .insertInto('audit_log')
    .values({
      id: newAuditId(),
      organization_id: entry.organizationId,
      actor_type: context.actor.type,
      actor_id: context.actor.id,
      actor_email: context.actor.email,
      action: entry.action,
      target_type: entry.target.type,
      target_id: entry.target.id,
      before: entry.before ? JSON.stringify(entry.before) : null,
      after: entry.after ? JSON.stringify(entry.after) : null,
      ip: context.ip,
      user_agent: context.user_agent,
      created_at: entry.at,
    })
    .execute();
}

/** The fields whose values differ, as two small objects; null when nothing changed. */
export function changedFields<T extends Record<string, unknown>>(
  before: T,
  after: T,
): { before: Partial<T>; after: Partial<T> } | null {
  const keys = Object.keys(after).filter(
    (key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null),
  );
  if (keys.length === 0) return null;
  const pick = (from: T) =>
    Object.fromEntries(keys.map((key) => [key, from[key] ?? null])) as Partial<T>;
  return { before: pick(before), after: pick(after) };
}

/** A card as the log names it: brand and last four digits, never more. */
export function cardOf(
  method: { id: string; brand: string; last4: string } | null | undefined,
): { id: string; brand: string; last4: string } | null {
  return method ? { id: method.id, brand: method.brand, last4: method.last4 } : null;
}
