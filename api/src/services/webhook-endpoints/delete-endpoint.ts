import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import { deleteWebhookEndpoint as deleteRow } from '../../repositories/webhook-endpoints.ts';
import { WEBHOOK_ENDPOINT_NOT_FOUND, auditedEndpoint, endpointTarget } from './endpoint-view.ts';

/** Deletes an endpoint and its delivery log. */
export async function deleteWebhookEndpoint(
  db: Db,
  input: { organizationId: string; id: string; audit: AuditContext; now: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const deleted = await deleteRow(trx, input.organizationId, input.id);
    if (!deleted) throw new Failure('not_found', WEBHOOK_ENDPOINT_NOT_FOUND);
    await recordAudit(trx, input.audit, {
      organizationId: input.organizationId,
      action: 'webhook_endpoint.deleted',
      target: endpointTarget(deleted.id),
      before: auditedEndpoint(deleted),
      at: input.now,
    });
  });
}
