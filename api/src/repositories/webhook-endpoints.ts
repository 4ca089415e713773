import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../db/database.ts';
import type { WebhookEndpointsTable } from '../db/schema.ts';

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;

/** The last delivery of an endpoint, with the time of its last attempt (null before the first). */
export interface LastDelivery {
  endpoint_id: string;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_status: number | null;
  created_at: Date;
  last_attempt_at: Date | null;
}

export function listWebhookEndpoints(
  db: Db,
  organizationId: string,
): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findWebhookEndpoint(
  db: Db,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<WebhookEndpointRow | undefined> {
  const query = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  return (options.forUpdate ? query.forUpdate() : query).executeTakeFirst();
}

export async function countWebhookEndpoints(db: Db, organizationId: string): Promise<number> {
  const count = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(count.n);
}

export function insertWebhookEndpoint(
  db: Db,
  values: Insertable<WebhookEndpointsTable>,
): Promise<WebhookEndpointRow> {
  return db.insertInto('webhook_endpoints').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateWebhookEndpoint(
  db: Db,
  organizationId: string,
  id: string,
  values: Updateable<WebhookEndpointsTable>,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set(values)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export function deleteWebhookEndpoint(
  db: Db,
  organizationId: string,
  id: string,
): Promise<WebhookEndpointRow | undefined> {
  return db
    .deleteFrom('webhook_endpoints')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The last delivery of each endpoint named (newest first, then by id), with its last attempt: two
 * queries whatever the number of endpoints. An endpoint never delivered to is absent.
 */
export async function lastDeliveries(
  db: Db,
  endpointIds: readonly string[],
): Promise<Map<string, LastDelivery>> {
  if (endpointIds.length === 0) return new Map();
  const last = await db
    .selectFrom('webhook_deliveries')
    .distinctOn('endpoint_id')
    .select(['id', 'endpoint_id', 'delivered_at', 'failed_at', 'last_status', 'created_at'])
    .where('endpoint_id', 'in', endpointIds)
    .orderBy('endpoint_id')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const attempts =
    last.length === 0
      ? []
      : await db
          .selectFrom('webhook_attempts')
          .select(['delivery_id', (eb) => eb.fn.max('at').as('at')])
          .where(
            'delivery_id',
            'in',
            last.map((row) => row.id),
          )
          .groupBy('delivery_id')
          .execute();
  const attemptAt = new Map(attempts.map((row) => [row.delivery_id, row.at]));
  return new Map(
    last.map(({ id, ...row }) => [
      row.endpoint_id,
      { ...row, last_attempt_at: attemptAt.get(id) ?? null },
    ]),
  );
}
