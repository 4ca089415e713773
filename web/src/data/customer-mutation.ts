import {
  customerProfileSchema,
  type CustomerProfile,
  type CustomerUpdate,
} from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * PUT /platform/organizations/{slug}/customer {billing_name, address}: replaces the billing name and
 * address (a null address clears it) and answers the stored profile. Billing write on the customer.
 */
export function updateCustomer(slug: string, body: CustomerUpdate): Promise<CustomerProfile> {
  return apiFetch(`/platform/organizations/${segment(slug)}/customer`, customerProfileSchema, {
    method: 'PUT',
    body,
  });
}

export function useUpdateCustomerMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.updateCustomer,
    mutationFn: (body: CustomerUpdate) => updateCustomer(slug, body),
  });
}
