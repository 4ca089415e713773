import { z } from 'zod';
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
    hcaptchaToken: z
      .string({ error: CAPTCHA_MISSING_MESSAGE })
      .min(1, CAPTCHA_MISSING_MESSAGE)
      .max(4096),
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
      .max(255),
  })
  .meta({ id: 'AttachPaymentMethodRequest' });

export const attachPaymentMethodResponseSchema = paymentMethodSchema;

export const setDefaultPaymentMethodBodySchema = z
  .object({
    payment_method_id: z
      .string({ error: 'Payment method id required' })
      .min(1, 'Payment method id required')
      .max(100),
  })
  .meta({ id: 'SetDefaultPaymentMethodRequest' });

export const defaultPaymentMethodResponseSchema = z
  .object({ defaultPaymentMethodId: z.string() })
  .meta({ id: 'DefaultPaymentMethod' });

export const deletePaymentMethodBodySchema = z
  .object({
    card_id: z.string({ error: 'Card id required' }).min(1, 'Card id required').max(100),
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

const clientSecretSchema = z
  .string({ error: 'Client secret required' })
  .min(1, 'Client secret required')
  .max(255);

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

export const PAYMENT_METHOD_ID_REQUIRED = 'Payment method id required';

export const invoicePaymentBodySchema = z
  .object({
    payment_method_id: z
      .string({ error: PAYMENT_METHOD_ID_REQUIRED })
      .min(1, PAYMENT_METHOD_ID_REQUIRED)
      .max(255)
      .describe("The card typed on the hosted page, as the provider's payment method"),
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
