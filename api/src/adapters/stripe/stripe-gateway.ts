import Stripe from 'stripe';
import type { Db } from '../../db/database.ts';
import {
  CardError,
  ProviderUnavailableError,
  type CardDetails,
  type RefundRequest,
  type ChargeRequest,
  type CreatedSetupIntent,
  type PaymentGateway,
  type PaymentIntentState,
  PROVIDER_REFUSED_PAYMENT,
  type ProviderLog,
  type ProviderCard,
  type SetupIntentRequest,
  type SetupIntentState,
  type SetupIntentStatus,
} from '../payment-gateway.ts';
import { keyRefused, providerFailure, providerRefusal } from './stripe-errors.ts';
import { CANCELED_MESSAGE } from './stripe-webhook.ts';

const FOREIGN_PAYMENT_METHOD = 'No such payment method.';

/** The least Stripe charges in USD (cents): it refuses less (`amount_too_small`). */
export const STRIPE_MINIMUM_CHARGE_CENTS = 50;

export interface StripeGatewayOptions {
  /** Another address of the API than Stripe's own (a local mock of it): `http://127.0.0.1:12111`. */
  apiUrl?: string;
  /** Where refusals of ours are reported (the server's logger); standard error without one. */
  log?: ProviderLog;
}

const STDERR_LOG: ProviderLog = {
  error: (details, message) => console.error(message, JSON.stringify(details)),
};

/** The SDK's host, port and protocol for an API address other than Stripe's. */
export function stripeHostOptions(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname,
    port: url.port || (protocol === 'http' ? 80 : 443),
    protocol,
  };
}

const customerIdOf = (customer: string | { id: string } | null): string | null =>
  typeof customer === 'string' ? customer : (customer?.id ?? null);

/**
 * The card provider's adapter, over the official SDK. Every create call carries an idempotency key, so a
 * retried call (ours or the SDK's own network retries) creates nothing twice. Only the secret key talks to
 * the provider; the browser gets publishable keys and client secrets of intents, never the secret key.
 */
export class StripeGateway implements PaymentGateway {
  readonly provider = 'stripe';
  private readonly stripe: Stripe;
  /** Set by the server once its logger exists. */
  log: ProviderLog;

  constructor(
    private readonly db: Db,
    secretKeyOrClient: string | Stripe,
    options: StripeGatewayOptions = {},
  ) {
    this.stripe =
      typeof secretKeyOrClient === 'string'
        ? new Stripe(secretKeyOrClient, {
            maxNetworkRetries: 2,
            timeout: 20_000,
            ...stripeHostOptions(options.apiUrl),
          })
        : secretKeyOrClient;
    this.log = options.log ?? STDERR_LOG;
  }

  async createCard(_card: CardDetails): Promise<ProviderCard> {
    // Card numbers never reach this server with the real provider: its fields in the browser take them.
    throw new CardError('Card details are collected by the payment provider in the browser.');
  }

  /** The provider's customer of an organization, created once (keyed) and remembered. */
  private async customerFor(organizationId: string): Promise<string> {
    const known = await this.findCustomer(organizationId);
    if (known) return known;
    const customer = await this.call(() =>
      this.stripe.customers.create(
        { metadata: { organization_id: organizationId } },
        { idempotencyKey: `customer:${organizationId}` },
      ),
    );
    await this.db
      .insertInto('provider_customers')
      .values({
        organization_id: organizationId,
        provider: this.provider,
        provider_customer_id: customer.id,
      })
      .onConflict((conflict) => conflict.columns(['organization_id', 'provider']).doNothing())
      .execute();
    return (await this.findCustomer(organizationId)) ?? customer.id;
  }

  private async findCustomer(organizationId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('provider_customers')
      .select('provider_customer_id')
      .where('organization_id', '=', organizationId)
      .where('provider', '=', this.provider)
      .executeTakeFirst();
    return row?.provider_customer_id;
  }

  async mayCharge(organizationId: string, providerPaymentMethodId: string): Promise<boolean> {
    let method: Stripe.PaymentMethod;
    try {
      method = await this.stripe.paymentMethods.retrieve(providerPaymentMethodId);
    } catch (error) {
      // Unknown to the provider (or of another account): nothing to charge.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return false;
      throw providerFailure(error);
    }
    const owner = customerIdOf(method.customer);
    return owner === null || owner === (await this.findCustomer(organizationId));
  }

  async charge(request: ChargeRequest): Promise<PaymentIntentState> {
    // "processing" is not a failure: the webhook (or reconciliation, by the charge key) settles it later.
    return this.createPaymentIntent(request);
  }

  async findPaymentIntentByKey(idempotencyKey: string): Promise<PaymentIntentState | null> {
    // Every intent carries its charge key in its metadata. Search is eventually consistent, so "not
    // found" may only mean "not indexed yet"; it is safe all the same: an intent is confirmed only after
    // its id was recorded on the charge, so a charge without one took no money.
    const found = await this.call(() =>
      this.stripe.paymentIntents.search({
        query: `metadata['charge_key']:'${searchLiteral(idempotencyKey)}'`,
        limit: 1,
      }),
    );
    const intent = found.data[0];
    if (!intent) return null;
    // Created but never confirmed: its caller died before recording it. Cancelled, it can take nothing.
    if (intent.status === 'requires_confirmation') {
      await this.cancelPaymentIntent(intent.id);
      return null;
    }
    return stateOf(intent);
  }

  async refund(request: RefundRequest): Promise<{ refundRef: string | null }> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: request.providerRef,
          amount: request.amountCents,
          metadata: { reason: request.reason.slice(0, 500) },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return { refundRef: refund.id };
    } catch (error) {
      // Everything was given back already (a refund made in the dashboard): nothing is left to refund.
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.code === 'charge_already_refunded'
      ) {
        return { refundRef: null };
      }
      throw providerFailure(error);
    }
  }

  private async createPaymentIntent(request: ChargeRequest): Promise<PaymentIntentState> {
    // Under the provider's minimum nothing is asked: it would refuse, and the refusal is ours, not the
    // card's (decision 004).
    if (request.amountCents < STRIPE_MINIMUM_CHARGE_CENTS) {
      this.log.error(
        { amountCents: request.amountCents, chargeKey: request.idempotencyKey },
        'payment under the payment provider minimum not sent',
      );
      return { status: 'failed', providerRef: null, message: PROVIDER_REFUSED_PAYMENT };
    }
    let method: Stripe.PaymentMethod;
    try {
      method = await this.stripe.paymentMethods.retrieve(request.providerPaymentMethodId);
    } catch (error) {
      // A card the provider no longer knows (detached, deleted) is a decline of that card, not an
      // outage: the invoice goes on to its retries and the other organizations' charges go on.
      if (isMissingResource(error)) {
        return { status: 'failed', providerRef: null, message: FOREIGN_PAYMENT_METHOD };
      }
      throw providerFailure(error);
    }
    let customer = customerIdOf(method.customer);
    if (request.organizationId) {
      // The intent belongs to the payer's customer: the provider then refuses a card saved for anyone
      // else, and so do we, before asking.
      const own = await this.customerFor(request.organizationId);
      if (customer && customer !== own) {
        return { status: 'failed', providerRef: null, message: FOREIGN_PAYMENT_METHOD };
      }
      customer = own;
    }
    let createdId: string | null = null;
    try {
      // Two steps: the intent is created unconfirmed under the charge key, its id goes to the caller's
      // charge row, and only then is it confirmed. A charge row without an intent id has therefore
      // taken no money, whatever was lost on the way.
      const created = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          payment_method: request.providerPaymentMethodId,
          allowed_payment_method_types: ['card'],
          ...(customer ? { customer } : {}),
          confirm: false,
          description: request.description,
          metadata: { ...request.metadata, charge_key: request.idempotencyKey },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (created.status !== 'requires_confirmation') return stateOf(created);
      createdId = created.id;
      await request.recordIntent?.(created.id);
      const confirmed = await this.stripe.paymentIntents.confirm(
        created.id,
        { off_session: request.offSession },
        { idempotencyKey: `${request.idempotencyKey}:confirm` },
      );
      return stateOf(confirmed);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        return {
          status: 'failed',
          providerRef: error.payment_intent?.id ?? null,
          message: error.message,
        };
      }
      if (isMissingResource(error)) {
        return { status: 'failed', providerRef: null, message: FOREIGN_PAYMENT_METHOD };
      }
      const refusal = providerRefusal(error);
      // The provider refused this payment for a reason of ours (an amount under its minimum, a
      // parameter): it failed, but not as the card's decline; the provider's words go to the log.
      if (refusal && !keyRefused(refusal)) {
        this.log.error(
          {
            providerStatus: refusal.statusCode,
            providerCode: refusal.code,
            providerMessage: refusal.message,
            chargeKey: request.idempotencyKey,
          },
          'payment provider refused a payment request',
        );
        return this.refused(createdId, PROVIDER_REFUSED_PAYMENT);
      }
      throw providerFailure(error);
    }
  }

  /**
   * A payment the provider refused: nothing was taken before an intent existed; a refused confirmation
   * cancels the intent, so it can never take money later (one that went through meanwhile stays so).
   */
  private async refused(createdId: string | null, message: string): Promise<PaymentIntentState> {
    if (!createdId) return { status: 'failed', providerRef: null, message };
    const after = await this.cancelPaymentIntent(createdId);
    return after.status === 'failed'
      ? { status: 'failed', providerRef: createdId, message }
      : after;
  }

  async retrievePaymentIntent(providerRef: string): Promise<PaymentIntentState> {
    return stateOf(await this.call(() => this.stripe.paymentIntents.retrieve(providerRef)));
  }

  async cancelPaymentIntent(providerRef: string): Promise<PaymentIntentState> {
    try {
      return stateOf(await this.stripe.paymentIntents.cancel(providerRef));
    } catch (error) {
      // Too late to cancel (it succeeded or failed meanwhile): its state says what happened.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        return this.retrievePaymentIntent(providerRef);
      }
      throw providerFailure(error);
    }
  }

  async createSetupIntent(request: SetupIntentRequest): Promise<CreatedSetupIntent> {
    const customer = await this.customerFor(request.organizationId);
    const intent = await this.call(() =>
      this.stripe.setupIntents.create(
        {
          customer,
          allowed_payment_method_types: ['card'],
          usage: 'off_session',
          metadata: { organization_id: request.organizationId },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    if (!intent.client_secret) throw new ProviderUnavailableError('The setup has no client secret');
    return { providerSetupIntentId: intent.id, clientSecret: intent.client_secret };
  }

  async retrieveSetupIntent(providerSetupIntentId: string): Promise<SetupIntentState> {
    const intent = await this.call(() =>
      this.stripe.setupIntents.retrieve(providerSetupIntentId, { expand: ['payment_method'] }),
    );
    const method = typeof intent.payment_method === 'object' ? intent.payment_method : null;
    const card =
      intent.status === 'succeeded' && method?.card
        ? {
            providerPaymentMethodId: method.id,
            brand: method.card.brand,
            last4: method.card.last4,
            expMonth: method.card.exp_month,
            expYear: method.card.exp_year,
            hasAddress: Boolean(method.billing_details.address?.line1),
          }
        : null;
    return { providerSetupIntentId: intent.id, status: setupStatusOf(intent.status), card };
  }

  async detachPaymentMethod(providerPaymentMethodId: string): Promise<void> {
    await this.call(() => this.stripe.paymentMethods.detach(providerPaymentMethodId));
  }

  /** One call to the provider: its refusal (a 4xx) or an outage (no answer, a 5xx) as our failure. */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw providerFailure(error);
    }
  }
}

const SETUP_STATUSES: readonly SetupIntentStatus[] = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'succeeded',
  'canceled',
];

function setupStatusOf(status: string): SetupIntentStatus {
  return (SETUP_STATUSES as readonly string[]).includes(status)
    ? (status as SetupIntentStatus)
    : 'processing';
}

function isMissingResource(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing'
  );
}

/** A string inside single quotes of Stripe's search query language. */
function searchLiteral(value: string): string {
  return value.replaceAll('\\', '\\\\').replaceAll("'", "\\'");
}

function stateOf(intent: Stripe.PaymentIntent): PaymentIntentState {
  switch (intent.status) {
    case 'succeeded':
      return { status: 'succeeded', providerRef: intent.id };
    case 'requires_action':
      return {
        status: 'requires_action',
        providerRef: intent.id,
        clientSecret: intent.client_secret ?? '',
      };
    case 'requires_payment_method':
      return {
        status: 'failed',
        providerRef: intent.id,
        message: intent.last_payment_error?.message ?? 'Payment failed.',
      };
    case 'canceled':
      return { status: 'failed', providerRef: intent.id, message: CANCELED_MESSAGE };
    default:
      return { status: 'processing', providerRef: intent.id };
  }
}
