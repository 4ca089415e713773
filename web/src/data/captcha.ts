import { captchaTokenSchema } from '@meterline/domain';
import { apiFetch } from './api-client';

/**
 * POST /platform/captcha: a token of the built-in invisible captcha (signed-in user). Single use and
 * valid five minutes, so one is fetched for each request that needs one, never cached.
 */
export async function getBuiltinCaptchaToken(): Promise<string> {
  const { token } = await apiFetch('/platform/captcha', captchaTokenSchema, { method: 'POST' });
  return token;
}
