import { z } from 'zod';
import { PRINTABLE_ASCII, prefixedIdPattern } from '../schemas/common.ts';
import { paymentMethodSchema } from './payment-methods.ts';

/**
 * The payments contract between web and api (docs/decisions/004-payments.md): request bodies and answers
 * of the payment-method, captcha, configuration and simulator calls.
 */

export const CAPTCHA_MISSING_MESSAGE = 'Captcha not submitted';
export const CAPTCHA_FAILED_MESSAGE = 'Captcha verification failed, please try again';
export const CARD_DECLINED_MESSAGE = 'Your card was declined.';
export const AUTHENTICATION_FAILED_MESSAGE =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

// Ids a client sends back: each has the shape its issuer gives it, so a NUL or a space (which reach SQL)
// is refused as a 400 naming the field.

/** A card: ours (`pm_…`), or the provider's payment method (`pm_…` at Stripe and in the simulator). */
function paymentMethodId(required: string, label: string) {
  return z
    .string({ error: required })
    .min(1, required)
    .max(255, `${label} must be at most 255 characters`)
    .regex(prefixedIdPattern('pm'), `${label} is not valid`);
}

export const PAYMENT_METHOD_ID_REQUIRED = 'Payment method id required';
export const paymentMethodIdSchema = paymentMethodId(
  PAYMENT_METHOD_ID_REQUIRED,
  'Payment method id',
);

/** A captcha token: the built-in one's or hCaptcha's, printable ASCII either way. */
export const captchaTokenInputSchema = z
  .string({ error: CAPTCHA_MISSING_MESSAGE })
  .min(1, CAPTCHA_MISSING_MESSAGE)
  .max(4096, CAPTCHA_FAILED_MESSAGE)
  .regex(PRINTABLE_ASCII, CAPTCHA_FAILED_MESSAGE);

/** A client secret of the provider's intents: `seti_…_secret_…`, `pi_…_secret_…`. */
const clientSecretSchema = z
  .string({ error: 'Client secret required' })
  .min(1, 'Client secret required')
  .max(255, 'Client secret must be at most 255 characters')
  .regex(/^[A-Za-z0-9_]+$/, 'Client secret is not valid');

/** The simulator's 3-D Secure challenge: `chl_sim_` and base64url. */
export const challengeIdSchema = z
  .string({ error: 'Challenge id required' })
  .min(1, 'Challenge id required')
  .max(100, 'Challenge id must be at most 100 characters')
  .regex(/^chl_[A-Za-z0-9_-]+$/, 'Challenge id is not valid');

export const paymentsConfigSchema = z
  .object({
    payment_provider: z.enum(['simulator', 'stripe']),
    publishable_key: z.string().nullable(),
    captcha: z.object({
      provider: z.enum(['builtin', 'hcaptcha']),
      site_key: z.string().nullable(),
    }),
  })
  .meta({ id: 'PaymentsConfig' });
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

export const captchaTokenSchema = z
  .object({ token: z.string().describe('Single use, valid 5 minutes') })
  .meta({ id: 'CaptchaToken' });

export const setupIntentBodySchema = z
  .object({
    hcaptchaToken: captchaTokenInputSchema,
  })
  .meta({ id: 'SetupIntentRequest' });

export const setupIntentResponseSchema = z
  .object({ client_secret: z.string() })
  .meta({ id: 'SetupIntentResponse' });

export const attachPaymentMethodBodySchema = z
  .object({
    setup_intent_id: z
      .string({ error: 'Setup intent id required' })
      .min(1, 'Setup intent id required')
      .max(255, 'Setup intent id must be at most 255 characters')
      .regex(prefixedIdPattern('seti'), 'Setup intent id is not valid'),
  })
  .meta({ id: 'AttachPaymentMethodRequest' });

export const attachPaymentMethodResponseSchema = paymentMethodSchema;

export const setDefaultPaymentMethodBodySchema = z
  .object({
    payment_method_id: paymentMethodIdSchema,
  })
  .meta({ id: 'SetDefaultPaymentMethodRequest' });

export const defaultPaymentMethodResponseSchema = z
  .object({ defaultPaymentMethodId: z.string() })
  .meta({ id: 'DefaultPaymentMethod' });

export const deletePaymentMethodBodySchema = z
  .object({
    card_id: paymentMethodId('Card id required', 'Card id'),
  })
  .meta({ id: 'DeletePaymentMethodRequest' });

export const deletedPaymentMethodSchema = z
  .object({ deleted: z.string() })
  .meta({ id: 'DeletedPaymentMethod' });

// The simulator: what the provider's browser SDK and hosted pages are in production.

export const simulatorCardSchema = z
  .object({
    number: z
      .string({ error: 'Card number is required' })
      .trim()
      .min(1, 'Card number is required')
      .max(32),
    exp_month: z.number({ error: 'Expiry month is required' }).int().min(1).max(12),
    exp_year: z.number({ error: 'Expiry year is required' }).int().min(2000).max(2200),
    cvc: z.string({ error: 'CVC is required' }).trim().min(1, 'CVC is required').max(8),
  })
  .meta({ id: 'SimulatorCard' });
export type SimulatorCard = z.infer<typeof simulatorCardSchema>;

export const challengeSchema = z
  .object({ id: z.string().describe('The 3-D Secure challenge to complete or fail') })
  .meta({ id: 'SimulatorChallenge' });

export const simulatorSetupConfirmBodySchema = z
  .object({ client_secret: clientSecretSchema, card: simulatorCardSchema })
  .meta({ id: 'SimulatorSetupConfirmRequest' });

export const simulatorSetupConfirmResponseSchema = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('succeeded'), setup_intent_id: z.string() }),
    z.object({
      status: z.literal('requires_action'),
      setup_intent_id: z.string(),
      challenge: challengeSchema,
    }),
  ])
  .meta({ id: 'SimulatorSetupConfirmResponse' });
export type SimulatorSetupConfirmResponse = z.infer<typeof simulatorSetupConfirmResponseSchema>;

export const simulatorPaymentConfirmBodySchema = z
  .object({ client_secret: clientSecretSchema })
  .meta({ id: 'SimulatorPaymentConfirmRequest' });

export const simulatorPaymentResponseSchema = z
  .discriminatedUnion('status', [
    z.object({ status: z.literal('succeeded') }),
    z.object({ status: z.literal('requires_action'), challenge: challengeSchema }),
  ])
  .meta({ id: 'SimulatorPaymentResponse' });
export type SimulatorPaymentResponse = z.infer<typeof simulatorPaymentResponseSchema>;

export const simulatorChallengeBodySchema = z
  .object({ outcome: z.enum(['complete', 'fail']) })
  .meta({ id: 'SimulatorChallengeRequest' });

export const simulatorChallengeResponseSchema = z
  .object({
    status: z.literal('succeeded'),
    setup_intent_id: z.string().optional().describe('Present when the challenge was a card setup'),
  })
  .meta({ id: 'SimulatorChallengeResponse' });

/** The simulator's tokenization: what the provider's card fields do with a typed card in production. */
export const simulatorPaymentMethodBodySchema = z
  .object({ card: simulatorCardSchema })
  .meta({ id: 'SimulatorPaymentMethodRequest' });

export const simulatorPaymentMethodSchema = z
  .object({ id: z.string().describe('The payment method to pay with, once') })
  .meta({ id: 'SimulatorPaymentMethod' });
export type SimulatorPaymentMethod = z.infer<typeof simulatorPaymentMethodSchema>;

// Pay Now on the hosted invoice page, with either provider.

export const invoicePaymentBodySchema = z
  .object({
    payment_method_id: paymentMethodIdSchema.describe(
      "The card typed on the hosted page, as the provider's payment method",
    ),
  })
  .meta({ id: 'InvoicePaymentRequest' });
export type InvoicePaymentBody = z.infer<typeof invoicePaymentBodySchema>;

export const invoicePaymentResponseSchema = z
  .object({
    status: z.enum(['succeeded', 'requires_action', 'processing']),
    payment_intent_secret: z
      .string()
      .nullable()
      .describe('For requires_action: what the browser confirms (3-D Secure); null otherwise'),
  })
  .meta({ id: 'InvoicePaymentResponse' });
export type InvoicePaymentResponse = z.infer<typeof invoicePaymentResponseSchema>;

/** An Idempotency-Key header value: what a client sends to make a retry repeat the first result. */
export const idempotencyKeySchema = z
  .string()
  .min(1, 'Idempotency-Key must not be empty')
  .max(200, 'Idempotency-Key must be at most 200 characters')
  .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be printable ASCII without spaces');

/** The headers of a request that moves money: its optional Idempotency-Key. */
export const idempotencyHeadersSchema = z.looseObject({
  'idempotency-key': idempotencyKeySchema
    .optional()
    .describe(
      'Repeating a request with the same key returns the first result and charges nothing more',
    ),
});
