import { webhookEndpointListSchema, type WebhookEndpoint } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { webhookKeys } from './keys';

/** GET /platform/organizations/{slug}/webhooks: the endpoints, oldest first. Owners and admins. */
export async function getWebhooks(slug: string, signal?: AbortSignal): Promise<WebhookEndpoint[]> {
  const { endpoints } = await apiFetch(
    `/platform/organizations/${segment(slug)}/webhooks`,
    webhookEndpointListSchema,
    { signal },
  );
  return endpoints;
}

export const webhooksQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: webhookKeys.list(slug),
    queryFn: ({ signal }) => getWebhooks(slug, signal),
    // A last delivery waiting for the worker is settled within seconds: look again meanwhile.
    refetchInterval: (query) =>
      query.state.data?.some((endpoint) => endpoint.last_delivery?.status === 'pending')
        ? 2000
        : false,
  });

export function useWebhooksQuery(slug: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...webhooksQueryOptions(slug), enabled: enabled && Boolean(slug) });
}
