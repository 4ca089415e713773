import {
  WEBHOOK_TEST_EVENT,
  errorResponseSchema,
  orgParamsSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookEndpointCreateSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
  webhookParamsSchema,
  webhookSecretSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { systemClock, type Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import type { WebhookEndpointsTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';
import { auditContextOf } from '../plugins/audit-context.ts';
import { HttpError } from '../plugins/errors.ts';
import { lockOrganization } from '../services/billing/restrictions.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { changedFields, recordAudit } from '../repositories/record-audit.ts';
import { webhookUrlProblem, type Resolver } from '../services/webhooks/address-check.ts';
import type { WebhookSignal } from '../services/webhooks/delivery-worker.ts';
import { webhookId, writeEvent } from '../services/webhooks/enqueue-webhook.ts';
import { newWebhookSecret } from '../services/webhooks/signature.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const NOT_FOUND = 'Webhook endpoint not found';

/** What the audit log keeps of an endpoint: never its signing secret. */
const audited = (row: Selectable<WebhookEndpointsTable>) => ({
  url: row.url,
  description: row.description,
  events: row.events,
  enabled: row.enabled,
});
const endpointTarget = (id: string) => ({ type: 'webhook_endpoint' as const, id });
export const MAX_WEBHOOK_ENDPOINTS = 20;
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

function statusOf(row: { delivered_at: Date | null; failed_at: Date | null }) {
  return row.delivered_at ? 'succeeded' : row.failed_at ? 'failed' : 'pending';
}

/**
 * Signed webhooks (issue 15, items 6-8; decision 014). Owners and administrators only: an endpoint's URL
 * and its delivery log can name internal systems. Every query is scoped to the organization of the path;
 * an endpoint of another organization is a 404.
 */
const webhookEndpointRoutes: FastifyPluginAsyncZod<{
  db: Db;
  production: boolean;
  signal: WebhookSignal;
  resolve?: Resolver;
  /** Dates the audit log's entries, as every billing change's. */
  clock?: Clock;
}> = async (app, { db, production, signal, resolve, clock = systemClock }) => {
  const base = '/platform/organizations/:slug/webhooks';
  const read = { access: { kind: 'org' as const, permission: 'billing_read:webhooks' as const } };
  const write = { access: { kind: 'org' as const, permission: 'billing_write:webhooks' as const } };

  async function view(trx: Db, row: Selectable<WebhookEndpointsTable>): Promise<WebhookEndpoint> {
    const last = await trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'delivered_at', 'failed_at', 'last_status', 'created_at'])
      .where('endpoint_id', '=', row.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    const lastAttempt = last
      ? await trx
          .selectFrom('webhook_attempts')
          .select('at')
          .where('delivery_id', '=', last.id)
          .orderBy('at', 'desc')
          .limit(1)
          .executeTakeFirst()
      : undefined;
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      events: row.events as WebhookEventType[],
      enabled: row.enabled,
      disabled_reason: row.enabled ? null : (row.disabled_reason ?? 'manual'),
      created_at: unix(row.created_at),
      last_delivery: last
        ? {
            status: statusOf(last),
            at: unix(lastAttempt?.at ?? last.created_at),
            response_status: last.last_status,
          }
        : null,
    };
  }

  async function findEndpoint(trx: Db, organizationId: string, id: string) {
    const row = await trx
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new HttpError(404, NOT_FOUND);
    return row;
  }

  async function checkUrl(url: string) {
    const problem = await webhookUrlProblem(url, production, resolve);
    if (problem) throw new HttpError(400, problem);
  }

  app.get(
    base,
    {
      config: read,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'The webhook endpoints',
        params: orgParamsSchema,
        response: { 200: webhookEndpointListSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const rows = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return { endpoints: await Promise.all(rows.map((row) => view(db, row))) };
    },
  );

  app.post(
    base,
    {
      config: write,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'Add an endpoint; the answer holds its signing secret, this once',
        description:
          'The URL is https://, or any http(s) address outside production mode. In production mode ' +
          'every address the host resolves to must be public. At most 20 endpoints.',
        params: orgParamsSchema,
        body: webhookEndpointCreateSchema,
        response: { 201: webhookSecretSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      await checkUrl(request.body.url);
      const secret = newWebhookSecret();
      const endpoint = await db.transaction().execute(async (trx) => {
        // The organization's row, locked: two creations at once cannot both pass the count.
        await lockOrganization(trx, organizationId);
        const count = await trx
          .selectFrom('webhook_endpoints')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('organization_id', '=', organizationId)
          .executeTakeFirstOrThrow();
        if (Number(count.n) >= MAX_WEBHOOK_ENDPOINTS) {
          throw new HttpError(
            400,
            `An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`,
          );
        }
        const row = await trx
          .insertInto('webhook_endpoints')
          .values({
            id: webhookId('we'),
            organization_id: organizationId,
            url: request.body.url,
            description: request.body.description ?? '',
            events: request.body.events,
            secret,
            created_at: new Date(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'webhook_endpoint.created',
          target: endpointTarget(row.id),
          after: audited(row),
          at: clock.now(),
        });
        return view(trx, row);
      });
      return reply.code(201).send({ endpoint, secret });
    },
  );

  app.patch(
    `${base}/:id`,
    {
      config: write,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'Change an endpoint: URL, events, description, enabled',
        description: 'Enabling an endpoint that was disabled for failing starts its count again.',
        params: webhookParamsSchema,
        body: webhookEndpointUpdateSchema,
        response: { 200: webhookEndpointSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const { url, events, description, enabled } = request.body;
      await findEndpoint(db, organizationId, request.params.id);
      if (url !== undefined) await checkUrl(url);
      return db.transaction().execute(async (trx) => {
        const before = await trx
          .selectFrom('webhook_endpoints')
          .selectAll()
          .where('organization_id', '=', organizationId)
          .where('id', '=', request.params.id)
          .forUpdate()
          .executeTakeFirst();
        if (!before) throw new HttpError(404, NOT_FOUND);
        const row = await trx
          .updateTable('webhook_endpoints')
          .set({
            ...(url !== undefined && { url }),
            ...(events !== undefined && { events }),
            ...(description !== undefined && { description }),
            ...(enabled !== undefined && {
              enabled,
              disabled_reason: enabled ? null : 'manual',
              failing_since: null,
            }),
          })
          .where('organization_id', '=', organizationId)
          .where('id', '=', request.params.id)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new HttpError(404, NOT_FOUND);
        const changed = changedFields(audited(before), audited(row));
        if (changed) {
          const target = endpointTarget(row.id);
          const action = 'webhook_endpoint.updated';
          // The URL names the endpoint in the log's sentence, changed or not.
          const after = { url: row.url, ...changed.after };
          await recordAudit(trx, auditContextOf(request), {
            ...{ organizationId, action, target, before: changed.before, after },
            at: clock.now(),
          });
        }
        return view(trx, row);
      });
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: write,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'Delete an endpoint and its delivery log',
        params: webhookParamsSchema,
        response: { 204: z.null().describe('Deleted'), 400: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      await db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('webhook_endpoints')
          .where('organization_id', '=', organizationId)
          .where('id', '=', request.params.id)
          .returningAll()
          .executeTakeFirst();
        if (!deleted) throw new HttpError(404, NOT_FOUND);
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'webhook_endpoint.deleted',
          target: endpointTarget(deleted.id),
          before: audited(deleted),
          at: clock.now(),
        });
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}/:id/rotate-secret`,
    {
      config: write,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'Replace the signing secret; the answer holds the new one, this once',
        description: 'Deliveries from now on are signed with the new secret only.',
        params: webhookParamsSchema,
        response: { 200: webhookSecretSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const secret = newWebhookSecret();
      const row = await db.transaction().execute(async (trx) => {
        const rotated = await trx
          .updateTable('webhook_endpoints')
          .set({ secret })
          .where('organization_id', '=', organizationId)
          .where('id', '=', request.params.id)
          .returningAll()
          .executeTakeFirst();
        if (!rotated) throw new HttpError(404, NOT_FOUND);
        // Neither secret is recorded: only that it was replaced.
        await recordAudit(trx, auditContextOf(request), {
          organizationId,
          action: 'webhook_endpoint.secret_rotated',
          target: endpointTarget(rotated.id),
          after: { url: rotated.url },
          at: clock.now(),
        });
        return rotated;
      });
      return { endpoint: await view(db, row), secret };
    },
  );

  app.post(
    `${base}/:id/test`,
    {
      config: write,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'Send a test event (webhook.test) to this endpoint',
        description:
          'Queued and delivered like any event, whatever the endpoint subscribes to. 409 when the ' +
          'endpoint is disabled.',
        params: webhookParamsSchema,
        response: {
          202: webhookDeliverySchemaOnly(),
          400: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { organizationId, slug } = requireOrg(request);
      const endpoint = await findEndpoint(db, organizationId, request.params.id);
      if (!endpoint.enabled) throw new HttpError(409, 'Enable the endpoint to send it events');
      const delivery = await db.transaction().execute(async (trx) => {
        const eventId = await writeEvent(
          trx,
          organizationId,
          WEBHOOK_TEST_EVENT,
          { object: 'test', organization: slug, endpoint_id: endpoint.id },
          `${WEBHOOK_TEST_EVENT}:${webhookId('evt')}`,
          [endpoint.id],
        );
        return trx
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('event_id', '=', eventId ?? '')
          .executeTakeFirstOrThrow();
      });
      signal.queued();
      const [queued] = await deliveries(organizationId, endpoint.id, delivery.id);
      if (!queued) throw new HttpError(404, 'Webhook delivery not found');
      return reply.code(202).send(queued);
    },
  );

  async function deliveries(
    organizationId: string,
    endpointId: string,
    deliveryId?: string,
  ): Promise<WebhookDelivery[]> {
    let query = db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhook_events', 'webhook_events.id', 'webhook_deliveries.event_id')
      .select([
        'webhook_deliveries.id',
        'webhook_deliveries.event_id',
        'webhook_events.type',
        'webhook_deliveries.created_at',
        'webhook_deliveries.next_attempt_at',
        'webhook_deliveries.delivered_at',
        'webhook_deliveries.failed_at',
      ])
      .where('webhook_events.organization_id', '=', organizationId)
      .where('webhook_deliveries.endpoint_id', '=', endpointId)
      .orderBy('webhook_deliveries.created_at', 'desc')
      .orderBy('webhook_deliveries.id', 'desc')
      .limit(50);
    if (deliveryId) query = query.where('webhook_deliveries.id', '=', deliveryId);
    const rows = await query.execute();
    const attempts =
      rows.length === 0
        ? []
        : await db
            .selectFrom('webhook_attempts')
            .selectAll()
            .where(
              'delivery_id',
              'in',
              rows.map((row) => row.id),
            )
            .orderBy('at', 'desc')
            .orderBy('id')
            .execute();
    return rows.map((row) => {
      const status = statusOf(row);
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

  app.get(
    `${base}/:id/deliveries`,
    {
      config: read,
      schema: {
        tags: ['webhook-endpoints'],
        summary: "The endpoint's deliveries with every attempt",
        params: webhookParamsSchema,
        response: { 200: webhookDeliveryListSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      await findEndpoint(db, organizationId, request.params.id);
      return { deliveries: await deliveries(organizationId, request.params.id) };
    },
  );

  app.post(
    `${base}/:id/deliveries/:delivery_id/resend`,
    {
      config: write,
      schema: {
        tags: ['webhook-endpoints'],
        summary: 'Send a delivery again, now',
        description:
          'The delivery is attempted at once and, failing, retried for 3 days again; the same event ' +
          'id and body are sent, so a receiver that saw it can drop it. 409 when the endpoint is disabled.',
        params: webhookDeliveryParamsSchema,
        response: {
          202: webhookDeliverySchemaOnly(),
          400: errorResponseSchema,
          409: errorResponseSchema,
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { organizationId } = requireOrg(request);
      const endpoint = await findEndpoint(db, organizationId, request.params.id);
      if (!endpoint.enabled) throw new HttpError(409, 'Enable the endpoint to send it events');
      const now = new Date();
      const updated = await db
        .updateTable('webhook_deliveries')
        .set({
          delivered_at: null,
          failed_at: null,
          claimed_until: null,
          retry_since: now,
          next_attempt_at: now,
        })
        .where('id', '=', request.params.delivery_id)
        .where('endpoint_id', '=', endpoint.id)
        .returning('id')
        .executeTakeFirst();
      if (!updated) throw new HttpError(404, 'Webhook delivery not found');
      signal.queued();
      const [queued] = await deliveries(organizationId, endpoint.id, updated.id);
      if (!queued) throw new HttpError(404, 'Webhook delivery not found');
      return reply.code(202).send(queued);
    },
  );
};

function webhookDeliverySchemaOnly() {
  return webhookDeliveryListSchema.shape.deliveries.def.element;
}

export default webhookEndpointRoutes;
