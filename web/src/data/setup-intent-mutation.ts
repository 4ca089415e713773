import { setupIntentResponseSchema } from '@meterline/domain';
import { useMutation } from '@tanstack/react-query';
import { apiFetch, segment } from './api-client';
import { mutationKeys } from './invalidation';

/**
 * POST /platform/organizations/{slug}/payments/setup-intent {hcaptchaToken}: the provider's
 * permission to collect one card, as a client secret. The server checks the captcha token first.
 * Billing write on payment methods.
 */
export function createSetupIntent(
  slug: string,
  hcaptchaToken: string,
): Promise<{ client_secret: string }> {
  return apiFetch(
    `/platform/organizations/${segment(slug)}/payments/setup-intent`,
    setupIntentResponseSchema,
    { method: 'POST', body: { hcaptchaToken } },
  );
}

export function useSetupIntentMutation(slug: string) {
  return useMutation({
    mutationKey: mutationKeys.setupIntent,
    mutationFn: (hcaptchaToken: string) => createSetupIntent(slug, hcaptchaToken),
  });
}
