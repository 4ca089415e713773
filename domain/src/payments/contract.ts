import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
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
    .check(z.minLength(1, required))
    .check(z.maxLength(255, `${label} must be at most 255 characters`))
    .check(z.regex(prefixedIdPattern('pm'), `${label} is not valid`));
}

export const PAYMENT_METHOD_ID_REQUIRED = 'Payment method id required';
export const paymentMethodIdSchema = paymentMethodId(
  PAYMENT_METHOD_ID_REQUIRED,
  'Payment method id',
);

/** A captcha token: the built-in one's or hCaptcha's, printable ASCII either way. */
export const captchaTokenInputSchema = z
  .string({ error: CAPTCHA_MISSING_MESSAGE })
  .check(z.minLength(1, CAPTCHA_MISSING_MESSAGE))
  .check(z.maxLength(4096, CAPTCHA_FAILED_MESSAGE))
  .check(z.regex(PRINTABLE_ASCII, CAPTCHA_FAILED_MESSAGE));

/** A client secret of the provider's intents: `seti_…_secret_…`, `pi_…_secret_…`. */
const clientSecretSchema = z
  .string({ error: 'Client secret required' })
  .check(z.minLength(1, 'Client secret required'))
  .check(z.maxLength(255, 'Client secret must be at most 255 characters'))
  .check(z.regex(/^[A-Za-z0-9_]+$/, 'Client secret is not valid'));

/** The simulator's 3-D Secure challenge: `chl_sim_` and base64url. */
export const challengeIdSchema = z
  .string({ error: 'Challenge id required' })
  .check(z.minLength(1, 'Challenge id required'))
  .check(z.maxLength(100, 'Challenge id must be at most 100 characters'))
  .check(z.regex(/^chl_[A-Za-z0-9_-]+$/, 'Challenge id is not valid'));

export const paymentsConfigSchema = documented(
  z.object({
    payment_provider: z.enum(['simulator', 'stripe']),
    publishable_key: z.nullable(z.string()),
    captcha: z.object({
      provider: z.enum(['builtin', 'hcaptcha']),
      site_key: z.nullable(z.string()),
    }),
  }),
  { id: 'PaymentsConfig' },
);
export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

export const captchaTokenSchema = documented(
  z.object({ token: documented(z.string(), { description: 'Single use, valid 5 minutes' }) }),
  { id: 'CaptchaToken' },
);

export const setupIntentBodySchema = documented(
  z.object({
    hcaptchaToken: captchaTokenInputSchema,
  }),
  { id: 'SetupIntentRequest' },
);

export const setupIntentResponseSchema = documented(z.object({ client_secret: z.string() }), {
  id: 'SetupIntentResponse',
});

export const attachPaymentMethodBodySchema = documented(
  z.object({
    setup_intent_id: z
      .string({ error: 'Setup intent id required' })
      .check(z.minLength(1, 'Setup intent id required'))
      .check(z.maxLength(255, 'Setup intent id must be at most 255 characters'))
      .check(z.regex(prefixedIdPattern('seti'), 'Setup intent id is not valid')),
  }),
  { id: 'AttachPaymentMethodRequest' },
);

export const attachPaymentMethodResponseSchema = paymentMethodSchema;

export const setDefaultPaymentMethodBodySchema = documented(
  z.object({
    payment_method_id: paymentMethodIdSchema,
  }),
  { id: 'SetDefaultPaymentMethodRequest' },
);

export const defaultPaymentMethodResponseSchema = documented(
  z.object({ defaultPaymentMethodId: z.string() }),
  { id: 'DefaultPaymentMethod' },
);

export const deletePaymentMethodBodySchema = documented(
  z.object({
    card_id: paymentMethodId('Card id required', 'Card id'),
  }),
  { id: 'DeletePaymentMethodRequest' },
);

export const deletedPaymentMethodSchema = documented(z.object({ deleted: z.string() }), {
  id: 'DeletedPaymentMethod',
});

// The simulator: what the provider's browser SDK and hosted pages are in production.

export const simulatorCardSchema = documented(
  z.object({
    number: z
      .string({ error: 'Card number is required' })
      .check(z.trim())
      .check(z.minLength(1, 'Card number is required'))
      .check(z.maxLength(32)),
    exp_month: z
      .number({ error: 'Expiry month is required' })
      .check(z.int())
      .check(z.gte(1))
      .check(z.lte(12)),
    exp_year: z
      .number({ error: 'Expiry year is required' })
      .check(z.int())
      .check(z.gte(2000))
      .check(z.lte(2200)),
    cvc: z
      .string({ error: 'CVC is required' })
      .check(z.trim())
      .check(z.minLength(1, 'CVC is required'))
      .check(z.maxLength(8)),
  }),
  { id: 'SimulatorCard' },
);
export type SimulatorCard = z.infer<typeof simulatorCardSchema>;

export const challengeSchema = documented(
  z.object({
    id: documented(z.string(), { description: 'The 3-D Secure challenge to complete or fail' }),
  }),
  { id: 'SimulatorChallenge' },
);

export const simulatorSetupConfirmBodySchema = documented(
  z.object({ client_secret: clientSecretSchema, card: simulatorCardSchema }),
  { id: 'SimulatorSetupConfirmRequest' },
);

export const simulatorSetupConfirmResponseSchema = documented(
  z.discriminatedUnion('status', [
    z.object({ status: z.literal('succeeded'), setup_intent_id: z.string() }),
    z.object({
      status: z.literal('requires_action'),
      setup_intent_id: z.string(),
      challenge: challengeSchema,
    }),
  ]),
  { id: 'SimulatorSetupConfirmResponse' },
);
export type SimulatorSetupConfirmResponse = z.infer<typeof simulatorSetupConfirmResponseSchema>;

export const simulatorPaymentConfirmBodySchema = documented(
  z.object({ client_secret: clientSecretSchema }),
  { id: 'SimulatorPaymentConfirmRequest' },
);

export const simulatorPaymentResponseSchema = documented(
  z.discriminatedUnion('status', [
    z.object({ status: z.literal('succeeded') }),
    z.object({ status: z.literal('requires_action'), challenge: challengeSchema }),
  ]),
  { id: 'SimulatorPaymentResponse' },
);
export type SimulatorPaymentResponse = z.infer<typeof simulatorPaymentResponseSchema>;

export const simulatorChallengeBodySchema = documented(
  z.object({ outcome: z.enum(['complete', 'fail']) }),
  { id: 'SimulatorChallengeRequest' },
);

export const simulatorChallengeResponseSchema = documented(
  z.object({
    status: z.literal('succeeded'),
    setup_intent_id: documented(z.optional(z.string()), {
      description: 'Present when the challenge was a card setup',
    }),
  }),
  { id: 'SimulatorChallengeResponse' },
);

/** The simulator's tokenization: what the provider's card fields do with a typed card in production. */
export const simulatorPaymentMethodBodySchema = documented(
  z.object({ card: simulatorCardSchema }),
  { id: 'SimulatorPaymentMethodRequest' },
);

export const simulatorPaymentMethodSchema = documented(
  z.object({ id: documented(z.string(), { description: 'The payment method to pay with, once' }) }),
  { id: 'SimulatorPaymentMethod' },
);
export type SimulatorPaymentMethod = z.infer<typeof simulatorPaymentMethodSchema>;

// Pay Now on the hosted invoice page, with either provider.

export const invoicePaymentBodySchema = documented(
  z.object({
    payment_method_id: documented(paymentMethodIdSchema, {
      description: "The card typed on the hosted page, as the provider's payment method",
    }),
  }),
  { id: 'InvoicePaymentRequest' },
);
export type InvoicePaymentBody = z.infer<typeof invoicePaymentBodySchema>;

export const invoicePaymentResponseSchema = documented(
  z.object({
    status: z.enum(['succeeded', 'requires_action', 'processing']),
    payment_intent_secret: documented(z.nullable(z.string()), {
      description: 'For requires_action: what the browser confirms (3-D Secure); null otherwise',
    }),
  }),
  { id: 'InvoicePaymentResponse' },
);
export type InvoicePaymentResponse = z.infer<typeof invoicePaymentResponseSchema>;

/** An Idempotency-Key header value: what a client sends to make a retry repeat the first result. */
export const idempotencyKeySchema = z
  .string()
  .check(z.minLength(1, 'Idempotency-Key must not be empty'))
  .check(z.maxLength(200, 'Idempotency-Key must be at most 200 characters'))
  .check(z.regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be printable ASCII without spaces'));

/** The headers of a request that moves money: its optional Idempotency-Key. */
export const idempotencyHeadersSchema = z.looseObject({
  'idempotency-key': documented(z.optional(idempotencyKeySchema), {
    description:
      'Repeating a request with the same key returns the first result and charges nothing more',
  }),
});
