import {
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
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { systemClock, type Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { auditContextOf } from '../plugins/audit-context.ts';
import { requireOrg } from '../plugins/request-context.ts';
import { listWebhookEndpoints } from '../repositories/webhook-endpoints.ts';
import { createWebhookEndpoint } from '../services/webhook-endpoints/create-endpoint.ts';
import { endpointDeliveries } from '../services/webhook-endpoints/deliveries.ts';
import { deleteWebhookEndpoint } from '../services/webhook-endpoints/delete-endpoint.ts';
import { endpointViews } from '../services/webhook-endpoints/endpoint-view.ts';
import { requireEndpoint } from '../services/webhook-endpoints/find-endpoint.ts';
import { rotateWebhookSecret } from '../services/webhook-endpoints/rotate-secret.ts';
import { resendDelivery, sendTestEvent } from '../services/webhook-endpoints/send-delivery.ts';
import { changeWebhookEndpoint } from '../services/webhook-endpoints/update-endpoint.ts';
import type { Resolver } from '../services/webhooks/address-check.ts';
import type { WebhookSignal } from '../services/webhooks/delivery-worker.ts';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };

/**
 * Signed webhooks (decision 014). Owners and administrators only: an endpoint's URL
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

  const policy = { production, resolve };

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
      const rows = await listWebhookEndpoints(db, organizationId);
      return { endpoints: await endpointViews(db, rows) };
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
      const created = await createWebhookEndpoint(db, {
        organizationId,
        request: request.body,
        policy,
        audit: auditContextOf(request),
        now: clock.now(),
      });
      return reply.code(201).send(created);
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
      return changeWebhookEndpoint(db, {
        organizationId,
        id: request.params.id,
        request: request.body,
        policy,
        audit: auditContextOf(request),
        now: clock.now(),
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
      const audit = auditContextOf(request);
      await deleteWebhookEndpoint(db, {
        organizationId,
        id: request.params.id,
        audit,
        now: clock.now(),
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
        description:
          'Deliveries are signed with both secrets for 24 hours, then with the new one only.',
        params: webhookParamsSchema,
        response: { 200: webhookSecretSchema, 400: errorResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { organizationId } = requireOrg(request);
      const audit = auditContextOf(request);
      return rotateWebhookSecret(db, {
        organizationId,
        id: request.params.id,
        audit,
        now: clock.now(),
      });
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
      const ref = { organizationId, slug, endpointId: request.params.id };
      return reply.code(202).send(await sendTestEvent({ db, signal }, ref));
    },
  );

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
      await requireEndpoint(db, organizationId, request.params.id);
      return { deliveries: await endpointDeliveries(db, organizationId, request.params.id) };
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
      const ref = {
        organizationId,
        endpointId: request.params.id,
        deliveryId: request.params.delivery_id,
      };
      return reply.code(202).send(await resendDelivery({ db, signal }, ref));
    },
  );
};

function webhookDeliverySchemaOnly() {
  return webhookDeliveryListSchema.shape.deliveries.def.element;
}

export default webhookEndpointRoutes;
