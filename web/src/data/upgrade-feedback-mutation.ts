import { PLAN_IDS, plainTextSchema, slugSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * The body of POST /platform/feedback/upgrade (spec §7). Defined here because the domain has no schema for
 * it on this branch yet: when the API's lands in the domain package, this one gives way to it.
 */
export const upgradeFeedbackBodySchema = z.strictObject({
  orgSlug: slugSchema,
  prevPlan: z.enum(PLAN_IDS),
  currentPlan: z.enum(PLAN_IDS),
  reasons: z.array(plainTextSchema('Reason', 200)).check(z.minLength(1)).check(z.maxLength(20)),
  additionalFeedback: plainTextSchema('Additional feedback', 2000),
});
export type UpgradeFeedbackBody = z.infer<typeof upgradeFeedbackBodySchema>;

/** The answer (201) is only an acknowledgement; nothing of it is shown. */
const upgradeFeedbackResponseSchema = z.unknown();

export async function submitUpgradeFeedback(body: UpgradeFeedbackBody): Promise<void> {
  if (!body.orgSlug) throw new Error('orgSlug is required');
  const parsed = upgradeFeedbackBodySchema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid survey');
  await apiFetch('/platform/feedback/upgrade', upgradeFeedbackResponseSchema, {
    method: 'POST',
    body: parsed.data,
  });
}

export function useUpgradeFeedbackMutation() {
  return useMutation({
    mutationKey: mutationKeys.submitUpgradeFeedback,
    mutationFn: submitUpgradeFeedback,
  });
}
