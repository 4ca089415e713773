import { spendAlertStateSchema, type SpendAlert, type SpendAlertState } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

const path = (slug: string) => `/platform/organizations/${segment(slug)}/billing/spend-alert`;

/**
 * PUT /platform/organizations/{slug}/billing/spend-alert {budget, thresholds}: sets the budget and
 * answers the new state (a budget below the spend so far has already alerted). Billing write on
 * subscriptions.
 */
export function setSpendAlert(slug: string, body: SpendAlert): Promise<SpendAlertState> {
  return apiFetch(path(slug), spendAlertStateSchema, { method: 'PUT', body });
}

/** DELETE /platform/organizations/{slug}/billing/spend-alert: removes the budget (204). */
export async function deleteSpendAlert(slug: string): Promise<null> {
  await apiFetch(path(slug), z.undefined(), { method: 'DELETE' });
  return null;
}

export function useSetSpendAlertMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.setSpendAlert,
    mutationFn: (body: SpendAlert) => setSpendAlert(slug, body),
  });
}

export function useDeleteSpendAlertMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.deleteSpendAlert,
    mutationFn: () => deleteSpendAlert(slug),
  });
}
