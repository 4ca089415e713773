import { taxIdResponseSchema, type TaxId, type TaxIdUpdate } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

const path = (slug: string) => `/platform/organizations/${segment(slug)}/tax-ids`;

/**
 * PUT /platform/organizations/{slug}/tax-ids {type, value, country}: replaces the tax ID and answers
 * what was stored (the server adds a missing VAT prefix too). Billing write on the customer.
 */
export async function setTaxId(slug: string, body: TaxIdUpdate): Promise<TaxId | null> {
  const { tax_id } = await apiFetch(path(slug), taxIdResponseSchema, { method: 'PUT', body });
  return tax_id;
}

/** DELETE /platform/organizations/{slug}/tax-ids with `Version: 2`: clears the tax ID. */
export async function deleteTaxId(slug: string): Promise<null> {
  await apiFetch(path(slug), taxIdResponseSchema, {
    method: 'DELETE',
    headers: { Version: '2' },
  });
  return null;
}

export function useSetTaxIdMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.setTaxId,
    mutationFn: (body: TaxIdUpdate) => setTaxId(slug, body),
  });
}

export function useDeleteTaxIdMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.deleteTaxId,
    mutationFn: () => deleteTaxId(slug),
  });
}
