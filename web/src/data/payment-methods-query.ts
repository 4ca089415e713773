import { paymentMethodsSchema, type PaymentMethods } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { paymentMethodKeys } from './keys';

/**
 * GET /platform/organizations/{slug}/payments with `Version: 2`: the cards and which one is the
 * default. Billing read on payment methods.
 */
export function getPaymentMethods(slug: string, signal?: AbortSignal): Promise<PaymentMethods> {
  return apiFetch(`/platform/organizations/${segment(slug)}/payments`, paymentMethodsSchema, {
    signal,
    headers: { Version: '2' },
  });
}

export const paymentMethodsQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: paymentMethodKeys.list(slug),
    queryFn: ({ signal }) => getPaymentMethods(slug, signal),
  });

export function usePaymentMethodsQuery(
  slug: string,
  { enabled = true }: { enabled?: boolean } = {},
) {
  return useQuery({ ...paymentMethodsQueryOptions(slug), enabled: enabled && Boolean(slug) });
}
