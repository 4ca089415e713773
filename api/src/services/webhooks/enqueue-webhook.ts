import { randomBytes } from 'node:crypto';
import type { WebhookEventType } from '@meterline/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.ts';

export function webhookId(prefix: 'we' | 'wd' | 'evt' | 'wa'): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

/**
 * Writes a webhook event and one delivery per enabled endpoint of the organization subscribed to its
 * type, in the caller's transaction (the one that decides the event): it commits with the event or not
 * at all. `eventKey` names the event once within its type ("in_…"); the same event decided again (the
 * job run twice, a provider event delivered twice) writes nothing. `data` describes the object: ids,
 * amounts in cents, statuses, times in unix seconds. Answers the event's id, or null when nothing was
 * written (already decided, or no endpoint listens).
 */
export async function enqueueWebhookEvent(
  trx: Db,
  organizationId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  eventKey: string,
): Promise<string | null> {
  const endpoints = await trx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('enabled', '=', true)
    .where(sql<boolean>`${type} = ANY(events)`)
    .execute();
  if (endpoints.length === 0) return null;
  return writeEvent(
    trx,
    organizationId,
    type,
    data,
    `${type}:${eventKey}`,
    endpoints.map((e) => e.id),
  );
}

/** The event row and its deliveries; nothing when the key was written before. */
export async function writeEvent(
  trx: Db,
  organizationId: string,
  type: string,
  data: Record<string, unknown>,
  key: string,
  endpointIds: string[],
): Promise<string | null> {
  // Row times are the wall clock (the worker's), whatever billing time decided the event.
  const now = new Date();
  const event = await trx
    .insertInto('webhook_events')
    .values({
      id: webhookId('evt'),
      organization_id: organizationId,
      type,
      event_key: key,
      data: JSON.stringify(data),
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'event_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!event) return null;
  await trx
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId) => ({
        id: webhookId('wd'),
        event_id: event.id,
        endpoint_id: endpointId,
        created_at: now,
        retry_since: now,
        next_attempt_at: now,
      })),
    )
    .onConflict((oc) => oc.columns(['event_id', 'endpoint_id']).doNothing())
    .execute();
  return event.id;
}
