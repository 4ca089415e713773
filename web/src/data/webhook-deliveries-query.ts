import { webhookDeliveryListSchema, type WebhookDelivery } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { webhookKeys } from './keys';

/** GET /platform/organizations/{slug}/webhooks/{id}/deliveries: newest first, with every attempt. */
export async function getWebhookDeliveries(
  slug: string,
  endpointId: string,
  signal?: AbortSignal,
): Promise<WebhookDelivery[]> {
  const { deliveries } = await apiFetch(
    `/platform/organizations/${segment(slug)}/webhooks/${segment(endpointId)}/deliveries`,
    webhookDeliveryListSchema,
    { signal },
  );
  return deliveries;
}

export const webhookDeliveriesQueryOptions = (slug: string, endpointId: string) =>
  queryOptions({
    queryKey: webhookKeys.deliveries(slug, endpointId),
    queryFn: ({ signal }) => getWebhookDeliveries(slug, endpointId, signal),
    // A delivery waiting for its worker turns into an attempt within seconds: look again meanwhile.
    refetchInterval: (query) =>
      query.state.data?.some((delivery) => delivery.status === 'pending') ? 2000 : false,
  });

export function useWebhookDeliveriesQuery(slug: string, endpointId: string) {
  return useQuery(webhookDeliveriesQueryOptions(slug, endpointId));
}
