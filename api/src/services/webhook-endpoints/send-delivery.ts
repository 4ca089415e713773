import { WEBHOOK_TEST_EVENT, type WebhookDelivery } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { deliveryOfEvent, requeueDelivery } from '../../repositories/webhook-deliveries.ts';
import type { WebhookSignal } from '../webhooks/delivery-worker.ts';
import { webhookId, writeEvent } from '../webhooks/enqueue-webhook.ts';
import { deliveryView } from './deliveries.ts';
import { WEBHOOK_DELIVERY_NOT_FOUND } from './endpoint-view.ts';
import { requireEndpoint } from './find-endpoint.ts';

export const ENDPOINT_DISABLED_MESSAGE = 'Enable the endpoint to send it events';

export interface SendDeps {
  db: Db;
  /** Wakes the delivery worker: a queued delivery is attempted at once. */
  signal: WebhookSignal;
}

/** Queues a test event (webhook.test) for one endpoint, whatever it subscribes to. */
export async function sendTestEvent(
  { db, signal }: SendDeps,
  ref: { organizationId: string; slug: string; endpointId: string },
): Promise<WebhookDelivery> {
  const { organizationId, slug } = ref;
  const endpoint = await requireEndpoint(db, organizationId, ref.endpointId);
  if (!endpoint.enabled) throw new Failure('conflict', ENDPOINT_DISABLED_MESSAGE);
  const delivery = await db.transaction().execute(async (trx) => {
    const eventId = await writeEvent(
      trx,
      organizationId,
      WEBHOOK_TEST_EVENT,
      { object: 'test', organization: slug, endpoint_id: endpoint.id },
      `${WEBHOOK_TEST_EVENT}:${webhookId('evt')}`,
      [endpoint.id],
    );
    return deliveryOfEvent(trx, eventId ?? '');
  });
  signal.queued();
  return deliveryView(db, organizationId, endpoint.id, delivery.id);
}

/**
 * Sends a delivery again, now: attempted at once and, failing, retried for 3 days again, with the same
 * event id and body, so a receiver that saw it can drop it.
 */
export async function resendDelivery(
  { db, signal }: SendDeps,
  ref: { organizationId: string; endpointId: string; deliveryId: string },
): Promise<WebhookDelivery> {
  const { organizationId } = ref;
  const endpoint = await requireEndpoint(db, organizationId, ref.endpointId);
  if (!endpoint.enabled) throw new Failure('conflict', ENDPOINT_DISABLED_MESSAGE);
  const updated = await requeueDelivery(db, endpoint.id, ref.deliveryId, new Date());
  if (!updated) throw new Failure('not_found', WEBHOOK_DELIVERY_NOT_FOUND);
  signal.queued();
  return deliveryView(db, organizationId, endpoint.id, updated.id);
}
