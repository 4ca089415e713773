import { taxIdResponseSchema, type TaxId } from '@meterline/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { taxIdKeys } from './keys';

/** GET /platform/organizations/{slug}/tax-ids: the tax ID, or null. Billing read on tax ids. */
export async function getTaxId(slug: string, signal?: AbortSignal): Promise<TaxId | null> {
  const { tax_id } = await apiFetch(
    `/platform/organizations/${segment(slug)}/tax-ids`,
    taxIdResponseSchema,
    { signal },
  );
  return tax_id;
}

export const taxIdQueryOptions = (slug: string) =>
  queryOptions({
    queryKey: taxIdKeys.detail(slug),
    queryFn: ({ signal }) => getTaxId(slug, signal),
  });

export function useTaxIdQuery(slug: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...taxIdQueryOptions(slug), enabled: enabled && Boolean(slug) });
}
