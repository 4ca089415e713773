import type { WebhookEndpoint, webhookEndpointUpdateSchema } from '@meterline/domain';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { changedFields, recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import {
  findWebhookEndpoint,
  updateWebhookEndpoint,
} from '../../repositories/webhook-endpoints.ts';
import {
  WEBHOOK_ENDPOINT_NOT_FOUND,
  auditedEndpoint,
  endpointTarget,
  endpointViewOf,
} from './endpoint-view.ts';
import { requireAllowedUrl, requireEndpoint, type UrlPolicy } from './find-endpoint.ts';

/** Changes an endpoint; enabling one that was disabled for failing starts its count again. */
export async function changeWebhookEndpoint(
  db: Db,
  input: {
    organizationId: string;
    id: string;
    request: z.output<typeof webhookEndpointUpdateSchema>;
    policy: UrlPolicy;
    audit: AuditContext;
    now: Date;
  },
): Promise<WebhookEndpoint> {
  const { organizationId, id } = input;
  const { url, events, description, enabled } = input.request;
  await requireEndpoint(db, organizationId, id);
  if (url !== undefined) await requireAllowedUrl(url, input.policy);
  return db.transaction().execute(async (trx) => {
    const before = await findWebhookEndpoint(trx, organizationId, id, { forUpdate: true });
    if (!before) throw new Failure('not_found', WEBHOOK_ENDPOINT_NOT_FOUND);
    const row = await updateWebhookEndpoint(trx, organizationId, id, {
      ...(url !== undefined && { url }),
      ...(events !== undefined && { events }),
      ...(description !== undefined && { description }),
      ...(enabled !== undefined && {
        enabled,
        disabled_reason: enabled ? null : 'manual',
        failing_since: null,
      }),
    });
    if (!row) throw new Failure('not_found', WEBHOOK_ENDPOINT_NOT_FOUND);
    const changed = changedFields(auditedEndpoint(before), auditedEndpoint(row));
    if (changed) {
      const target = endpointTarget(row.id);
      const action = 'webhook_endpoint.updated';
      // The URL names the endpoint in the log's sentence, changed or not.
      const after = { url: row.url, ...changed.after };
      await recordAudit(trx, input.audit, {
        ...{ organizationId, action, target, before: changed.before, after },
        at: input.now,
      });
    }
    return endpointViewOf(trx, row);
  });
}
