import type { WebhookEndpoint, WebhookEventType } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import {
  lastDeliveries,
  type LastDelivery,
  type WebhookEndpointRow,
} from '../../repositories/webhook-endpoints.ts';

export const WEBHOOK_ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
export const WEBHOOK_DELIVERY_NOT_FOUND = 'Webhook delivery not found';

export const unix = (date: Date) => Math.floor(date.getTime() / 1000);

export function deliveryStatus(row: { delivered_at: Date | null; failed_at: Date | null }) {
  return row.delivered_at ? 'succeeded' : row.failed_at ? 'failed' : 'pending';
}

/** What the audit log keeps of an endpoint: never its signing secret. */
export const auditedEndpoint = (row: WebhookEndpointRow) => ({
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
});

export const endpointTarget = (id: string) => ({ type: 'webhook_endpoint' as const, id });

function endpointView(row: WebhookEndpointRow, last: LastDelivery | undefined): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEventType[],
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : (row.disabled_reason ?? 'manual'),
    created_at: unix(row.created_at),
    previous_secret_expires_at: row.previous_secret_expires_at
      ? unix(row.previous_secret_expires_at)
      : null,
    last_delivery: last
      ? {
          status: deliveryStatus(last),
          at: unix(last.last_attempt_at ?? last.created_at),
          response_status: last.last_status,
        }
      : null,
  };
}

/** Endpoints as the API answers them, each with its last delivery (read for all of them at once). */
export async function endpointViews(
  db: Db,
  rows: readonly WebhookEndpointRow[],
): Promise<WebhookEndpoint[]> {
  const last = await lastDeliveries(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => endpointView(row, last.get(row.id)));
}

export async function endpointViewOf(db: Db, row: WebhookEndpointRow): Promise<WebhookEndpoint> {
  const [view] = await endpointViews(db, [row]);
  if (!view) throw new Error('An endpoint has a view');
  return view;
}
