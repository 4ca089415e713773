import { useMutation } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { apiFetch } from './api-client';

/**
 * POST /platform/feedback/downgrade: the exit survey (spec §7). Defined here because the domain
 * package has no schema for this endpoint yet: move it to the domain with the API route.
 */
export const downgradeFeedbackBodySchema = z.strictObject({
  orgSlug: z.string().check(z.minLength(1, 'orgSlug is required')),
  projectRef: z.optional(z.string()),
  /** The spec's "dash list": one "- reason" line per chosen reason. */
  reasons: z.string(),
  additionalFeedback: z.string(),
  exitAction: z.literal('downgrade'),
});
export type DowngradeFeedbackBody = z.infer<typeof downgradeFeedbackBodySchema>;

/** The survey's answer carries nothing the flow reads. */
const feedbackResponseSchema = z.unknown();

export async function sendDowngradeFeedback(body: DowngradeFeedbackBody): Promise<void> {
  const parsed = downgradeFeedbackBodySchema.safeParse(body);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'Invalid survey');
  await apiFetch('/platform/feedback/downgrade', feedbackResponseSchema, {
    method: 'POST',
    body: parsed.data,
  });
}

/** Sending the survey changes nothing cached: no mutation key, nothing to invalidate. */
export function useDowngradeFeedbackMutation() {
  return useMutation({ mutationFn: sendDowngradeFeedback });
}
