import { captchaTokenSchema, errorResponseSchema } from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../plugins/errors.ts';
import { perUserRateLimit } from '../plugins/rate-limits.ts';
import { requireUser } from '../plugins/request-context.ts';
import { BuiltinCaptcha } from '../adapters/captcha/builtin-captcha.ts';
import type { Captcha } from '../adapters/captcha/captcha.ts';

/** The built-in invisible captcha's token, issued to a signed-in user. */
const captchaRoutes: FastifyPluginAsyncZod<{ captcha: Captcha }> = async (app, { captcha }) => {
  app.post(
    '/platform/captcha',
    {
      config: {
        access: { kind: 'user' },
        // Per user, not per address: one person cannot lock out everyone behind the same office address.
        rateLimit: perUserRateLimit(30, '1 minute'),
      },
      schema: {
        tags: ['payments'],
        summary: 'A built-in captcha token: single use, valid 5 minutes',
        description:
          'Send it as hcaptchaToken (setup intent) or hcaptcha_token (top-up). 409 when hCaptcha is ' +
          'configured: the browser widget issues tokens then.',
        response: {
          200: captchaTokenSchema,
          401: errorResponseSchema,
          409: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request) => {
      if (!(captcha instanceof BuiltinCaptcha)) {
        throw new HttpError(409, 'The built-in captcha is not in use: hCaptcha issues the tokens');
      }
      return { token: await captcha.issue(requireUser(request).id) };
    },
  );
};

export default captchaRoutes;
