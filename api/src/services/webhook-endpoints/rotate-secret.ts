import type { WebhookEndpoint } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import { updateWebhookEndpoint } from '../../repositories/webhook-endpoints.ts';
import { newWebhookSecret } from '../webhooks/signature.ts';
import { WEBHOOK_ENDPOINT_NOT_FOUND, endpointTarget, endpointViewOf } from './endpoint-view.ts';

/** Replaces the signing secret: deliveries from now on are signed with the new one only. */
export async function rotateWebhookSecret(
  db: Db,
  input: { organizationId: string; id: string; audit: AuditContext; now: Date },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const secret = newWebhookSecret();
  const row = await db.transaction().execute(async (trx) => {
    const rotated = await updateWebhookEndpoint(trx, input.organizationId, input.id, { secret });
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
