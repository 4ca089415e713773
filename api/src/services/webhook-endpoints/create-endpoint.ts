import type { WebhookEndpoint, webhookEndpointCreateSchema } from '@meterline/domain';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import {
  countWebhookEndpoints,
  insertWebhookEndpoint,
} from '../../repositories/webhook-endpoints.ts';
import { lockOrganization } from '../restrictions/restrictions.ts';
import { webhookId } from '../webhooks/enqueue-webhook.ts';
import { newWebhookSecret } from '../webhooks/signature.ts';
import { auditedEndpoint, endpointTarget, endpointViewOf } from './endpoint-view.ts';
import { requireAllowedUrl, type UrlPolicy } from './find-endpoint.ts';

export const MAX_WEBHOOK_ENDPOINTS = 20;

/** A new endpoint; the answer holds its signing secret, this once. */
export async function createWebhookEndpoint(
  db: Db,
  input: {
    organizationId: string;
    request: z.output<typeof webhookEndpointCreateSchema>;
    policy: UrlPolicy;
    audit: AuditContext;
    now: Date;
  },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const { organizationId, request } = input;
  await requireAllowedUrl(request.url, input.policy);
  const secret = newWebhookSecret();
  const endpoint = await db.transaction().execute(async (trx) => {
    // The organization's row, locked: two creations at once cannot both pass the count.
    await lockOrganization(trx, organizationId);
    if ((await countWebhookEndpoints(trx, organizationId)) >= MAX_WEBHOOK_ENDPOINTS) {
      throw new Failure(
        'invalid',
        `An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`,
      );
    }
    const row = await insertWebhookEndpoint(trx, {
      id: webhookId('we'),
      organization_id: organizationId,
      url: request.url,
      description: request.description ?? '',
      events: request.events,
      secret,
      created_at: new Date(),
    });
    await recordAudit(trx, input.audit, {
      organizationId,
      action: 'webhook_endpoint.created',
      target: endpointTarget(row.id),
      after: auditedEndpoint(row),
      at: input.now,
    });
    return endpointViewOf(trx, row);
  });
  return { endpoint, secret };
}
