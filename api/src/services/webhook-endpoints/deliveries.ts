import type { WebhookDelivery } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { listDeliveries } from '../../repositories/webhook-deliveries.ts';
import { WEBHOOK_DELIVERY_NOT_FOUND, deliveryStatus, unix } from './endpoint-view.ts';

/** An endpoint's last 50 deliveries (or the one named), each with every attempt, newest first. */
export async function endpointDeliveries(
  db: Db,
  organizationId: string,
  endpointId: string,
  deliveryId?: string,
): Promise<WebhookDelivery[]> {
  const { rows, attempts } = await listDeliveries(db, organizationId, endpointId, deliveryId);
  return rows.map((row) => {
    const status = deliveryStatus(row);
    return {
      id: row.id,
      event_id: row.event_id,
      event_type: row.type,
      status,
      created_at: unix(row.created_at),
      next_attempt_at: status === 'pending' ? unix(row.next_attempt_at) : null,
      attempts: attempts
        .filter((attempt) => attempt.delivery_id === row.id)
        .map((attempt) => ({
          at: unix(attempt.at),
          response_status: attempt.response_status,
          duration_ms: attempt.duration_ms,
          response_excerpt: attempt.response_excerpt,
          error: attempt.error,
        })),
    };
  });
}

/** One delivery as the API answers it. */
export async function deliveryView(
  db: Db,
  organizationId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDelivery> {
  const [delivery] = await endpointDeliveries(db, organizationId, endpointId, deliveryId);
  if (!delivery) throw new Failure('not_found', WEBHOOK_DELIVERY_NOT_FOUND);
  return delivery;
}
