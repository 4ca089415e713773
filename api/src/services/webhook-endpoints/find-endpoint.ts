import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import {
  findWebhookEndpoint,
  type WebhookEndpointRow,
} from '../../repositories/webhook-endpoints.ts';
import { webhookUrlProblem, type Resolver } from '../webhooks/address-check.ts';
import { WEBHOOK_ENDPOINT_NOT_FOUND } from './endpoint-view.ts';

/** One endpoint of the organization; an endpoint of another organization is not found. */
export async function requireEndpoint(
  db: Db,
  organizationId: string,
  id: string,
): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, organizationId, id);
  if (!row) throw new Failure('not_found', WEBHOOK_ENDPOINT_NOT_FOUND);
  return row;
}

/** Where an endpoint may point: https://, or any http(s) address outside production mode. */
export interface UrlPolicy {
  production: boolean;
  resolve?: Resolver;
}

export async function requireAllowedUrl(url: string, policy: UrlPolicy): Promise<void> {
  const problem = await webhookUrlProblem(url, policy.production, policy.resolve);
  if (problem) throw new Failure('invalid', problem);
}
