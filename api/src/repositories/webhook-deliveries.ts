import type { Db } from '../db/database.ts';

/** The delivery an event was queued as (an event written for one endpoint has one). */
export function deliveryOfEvent(db: Db, eventId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
}

/** An endpoint's last 50 deliveries, newest first (or the one named), with every attempt. */
export async function listDeliveries(
  db: Db,
  organizationId: string,
  endpointId: string,
  deliveryId?: string,
) {
  let query = db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
    .select([
      'webhook_deliveries.id',
      'webhook_deliveries.event_id',
      'webhook_events.type',
      'webhook_deliveries.created_at',
      'webhook_deliveries.next_attempt_at',
      'webhook_deliveries.delivered_at',
      'webhook_deliveries.failed_at',
    ])
    .where('webhook_events.organization_id', '=', organizationId)
    .where('webhook_deliveries.endpoint_id', '=', endpointId)
    .orderBy('webhook_deliveries.created_at', 'desc')
    .orderBy('webhook_deliveries.id', 'desc')
    .limit(50);
  if (deliveryId) query = query.where('webhook_deliveries.id', '=', deliveryId);
  const rows = await query.execute();
  const attempts =
    rows.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .selectAll()
          .where(
            'delivery_id',
            'in',
            rows.map((row) => row.id),
          )
          .orderBy('at', 'desc')
          .orderBy('id')
          .execute();
  return { rows, attempts };
}

/** Puts a delivery back in the queue, due now, with a fresh retry window; undefined when unknown. */
export function requeueDelivery(db: Db, endpointId: string, deliveryId: string, now: Date) {
  return db
    .updateTable('webhook_deliveries')
    .set({
      delivered_at: null,
      failed_at: null,
      claimed_until: null,
      retry_since: now,
      next_attempt_at: now,
    })
    .where('id', '=', deliveryId)
    .where('endpoint_id', '=', endpointId)
    .returning('id')
    .executeTakeFirst();
}
