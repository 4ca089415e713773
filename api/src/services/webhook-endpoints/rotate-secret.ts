import type { WebhookEndpoint } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import {
  findWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../repositories/webhook-endpoints.ts';
import { newWebhookSecret } from '../webhooks/signature.ts';
import { WEBHOOK_ENDPOINT_NOT_FOUND, endpointTarget, endpointViewOf } from './endpoint-view.ts';

/** How long a replaced secret keeps signing beside the new one: time to deploy the new one. */
export const PREVIOUS_SECRET_HOURS = 24;

/**
 * Replaces the signing secret. Deliveries are signed with both for 24 hours (a receiver still holding
 * the old one verifies meanwhile), then with the new one only. Rotating again within the window drops
 * the oldest: at most two secrets sign.
 */
export async function rotateWebhookSecret(
  db: Db,
  input: { organizationId: string; id: string; audit: AuditContext; now: Date },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  const row = await db.transaction().execute(async (trx) => {
    const current = await findWebhookEndpoint(trx, input.organizationId, input.id, {
      forUpdate: true,
    });
    if (!current) throw new Failure('not_found', WEBHOOK_ENDPOINT_NOT_FOUND);
    const rotated = await updateWebhookEndpoint(trx, input.organizationId, input.id, {
      secret,
      previous_secret: current.secret,
      previous_secret_expires_at: new Date(
        input.now.getTime() + PREVIOUS_SECRET_HOURS * 3600 * 1000,
      ),
    });
    if (!rotated) throw new Failure('not_found', WEBHOOK_ENDPOINT_NOT_FOUND);
    // Neither secret is recorded: only that it was replaced.
    await recordAudit(trx, input.audit, {
      organizationId: input.organizationId,
      action: 'webhook_endpoint.secret_rotated',
      target: endpointTarget(rotated.id),
      after: { url: rotated.url },
      at: input.now,
    });
    return rotated;
  });
  return { endpoint: await endpointViewOf(db, row), secret };
}
