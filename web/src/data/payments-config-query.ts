import { paymentsConfigSchema, type PaymentsConfig } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from './api-client';
import { paymentsConfigKeys } from './keys';

/**
 * GET /platform/payments/config (any signed-in user): which payment and captcha adapters the
 * browser uses (decision 004), the simulator and the built-in captcha unless the server is
 * configured with Stripe and hCaptcha. Only public keys travel here.
 */
export function getPaymentsConfig(signal?: AbortSignal): Promise<PaymentsConfig> {
  return apiFetch('/platform/payments/config', paymentsConfigSchema, { signal });
}

export const paymentsConfigQueryOptions = () =>
  queryOptions({
    queryKey: paymentsConfigKeys.detail(),
    queryFn: ({ signal }) => getPaymentsConfig(signal),
    // Configuration changes with a deploy, not during a visit.
    staleTime: Infinity,
  });

export function usePaymentsConfigQuery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...paymentsConfigQueryOptions(), enabled });
}
