import {
  webhookEndpointSchema,
  webhookSecretSchema,
  type WebhookEndpointCreate,
  type WebhookEndpointUpdate,
} from '@meterline/domain';
import { webhookDeliveryListSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

const base = (slug: string) => `/platform/organizations/${segment(slug)}/webhooks`;
const endpoint = (slug: string, id: string) => `${base(slug)}/${segment(id)}`;
const deliverySchema = webhookDeliveryListSchema.shape.deliveries.def.element;

/** POST /webhooks {url, events, description}: the new endpoint and its signing secret, this once. */
export function useCreateWebhookMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.createWebhook,
    mutationFn: (body: WebhookEndpointCreate) =>
      apiFetch(base(slug), webhookSecretSchema, { method: 'POST', body }),
  });
}

/** PATCH /webhooks/{id}: URL, events, description or enabled. */
export function useUpdateWebhookMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.updateWebhook,
    mutationFn: ({ id, ...body }: WebhookEndpointUpdate & { id: string }) =>
      apiFetch(endpoint(slug, id), webhookEndpointSchema, { method: 'PATCH', body }),
  });
}

/** DELETE /webhooks/{id}: the endpoint and its delivery log. */
export function useDeleteWebhookMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.deleteWebhook,
    mutationFn: (id: string) =>
      apiFetch(endpoint(slug, id), z.unknown(), { method: 'DELETE' }).then(() => null),
  });
}

/** POST /webhooks/{id}/rotate-secret: the new signing secret, this once. */
export function useRotateWebhookSecretMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.rotateWebhookSecret,
    mutationFn: (id: string) =>
      apiFetch(`${endpoint(slug, id)}/rotate-secret`, webhookSecretSchema, { method: 'POST' }),
  });
}

/** POST /webhooks/{id}/test: queues a webhook.test event for this endpoint. */
export function useTestWebhookMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.testWebhook,
    mutationFn: (id: string) =>
      apiFetch(`${endpoint(slug, id)}/test`, deliverySchema, { method: 'POST' }),
  });
}

/** POST /webhooks/{id}/deliveries/{delivery_id}/resend: attempts the delivery again, now. */
export function useResendWebhookDeliveryMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.resendWebhookDelivery,
    mutationFn: ({ endpointId, deliveryId }: { endpointId: string; deliveryId: string }) =>
      apiFetch(
        `${endpoint(slug, endpointId)}/deliveries/${segment(deliveryId)}/resend`,
        deliverySchema,
        { method: 'POST' },
      ),
  });
}
