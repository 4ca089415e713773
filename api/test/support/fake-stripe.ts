import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stand-in for Stripe's HTTP API (there is no network in tests), with just the endpoints the
 * server's Stripe adapter calls for a Pay Now: customers, payment methods, payment intents (create and
 * confirm, retrieve, cancel). It answers in Stripe's shapes, Stripe's card errors included, and honours
 * Idempotency-Key as Stripe does: the same key replays the first answer, other parameters are refused.
 * The official SDK talks to it through STRIPE_API_URL.
 */

/** How a test card behaves when charged, as Stripe's test payment methods do. */
export type FakeCardKind = 'visa' | 'declined' | 'authenticate' | 'processing';

export const FAKE_DECLINE_MESSAGE = 'Your card was declined.';
export const FAKE_AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

interface FakePaymentMethod {
  id: string;
  kind: FakeCardKind;
  customer: string | null;
}

export interface FakePaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status:
    | 'succeeded'
    | 'requires_action'
    | 'requires_payment_method'
    | 'requires_confirmation'
    | 'canceled'
    | 'processing';
  amount_refunded: number;
  client_secret: string;
  customer: string | null;
  payment_method: string;
  description: string | null;
  metadata: Record<string, string>;
  last_payment_error: { message: string } | null;
  next_action: { type: string } | null;
}

export interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  params: Record<string, string>;
}

interface Answer {
  status: number;
  body: unknown;
}

/** An answer as sent: a replayed key gets these very bytes, whatever happened to the object since. */
interface Sent {
  status: number;
  text: string;
}

const sent = (answer: Answer): Sent => ({
  status: answer.status,
  text: JSON.stringify(answer.body),
});

const newId = (prefix: string) => `${prefix}_fake_${randomBytes(8).toString('hex')}`;

function stripeError(status: number, type: string, message: string, extra = {}): Answer {
  return { status, body: { error: { type, message, ...extra } } };
}

const missing = (what: string, id: string) =>
  stripeError(404, 'invalid_request_error', `No such ${what}: '${id}'`, {
    code: 'resource_missing',
  });

export class FakeStripe {
  readonly requests: FakeRequest[] = [];
  readonly customers = new Map<string, Record<string, string>>();
  private readonly methods = new Map<string, FakePaymentMethod>();
  private readonly intents = new Map<string, FakePaymentIntent>();
  private readonly replies = new Map<string, { params: string; reply: Sent }>();
  readonly refunds: { id: string; payment_intent: string; amount: number }[] = [];
  readonly setupIntents = new Map<string, { id: string; customer: string; status: string }>();
  /** Answers the next requests get instead of their own (an outage, a refusal), in order. */
  private readonly failures: Answer[] = [];
  private readonly server = createServer((request, response) => void this.serve(request, response));

  private constructor() {}

  static async start(): Promise<FakeStripe> {
    const fake = new FakeStripe();
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) =>
      this.server.close((error) => (error ? reject(error) : resolve())),
    );
  }

  /** What Stripe.js's createPaymentMethod makes of a typed card (attached to no customer), or a saved one. */
  paymentMethod(kind: FakeCardKind, customer: string | null = null): string {
    const id = newId('pm');
    this.methods.set(id, { id, kind, customer });
    return id;
  }

  /** The customer Stripe holds for an organization (created by the server), if any. */
  customerOf(organizationId: string): string | undefined {
    return [...this.customers].find(
      ([, metadata]) => metadata.organization_id === organizationId,
    )?.[0];
  }

  /** A refund an operator makes in Stripe's dashboard (no event sent: the test sends it). */
  dashboardRefund(intentId: string, amount: number): void {
    const intent = this.intent(intentId);
    intent.amount_refunded += amount;
    this.refunds.push({ id: newId('re'), payment_intent: intentId, amount });
  }

  intent(id: string): FakePaymentIntent {
    const intent = this.intents.get(id);
    if (!intent) throw new Error(`The fake Stripe has no payment intent ${id}`);
    return intent;
  }

  /** The intent a client secret belongs to, as the browser's confirmCardPayment finds it. */
  intentBySecret(clientSecret: string): FakePaymentIntent {
    const intent = [...this.intents.values()].find((item) => item.client_secret === clientSecret);
    if (!intent) throw new Error('The fake Stripe has no payment intent with this client secret');
    return intent;
  }

  /** The customer answering 3-D Secure in the browser (Stripe.js confirmCardPayment). */
  authenticate(clientSecret: string, outcome: 'complete' | 'fail'): FakePaymentIntent {
    const intent = this.intentBySecret(clientSecret);
    if (intent.status !== 'requires_action') return intent;
    if (outcome === 'complete') {
      intent.status = 'succeeded';
      intent.next_action = null;
    } else {
      intent.status = 'requires_payment_method';
      intent.next_action = null;
      intent.last_payment_error = { message: FAKE_AUTHENTICATION_FAILED };
    }
    return intent;
  }

  /** The next `times` requests answer this error, as Stripe would (a 5xx, a refusal, a bad key). */
  failNext(status: number, type: string, message: string, times = 1): void {
    for (let i = 0; i < times; i += 1) this.failures.push(stripeError(status, type, message));
  }

  /** A payment method Stripe no longer knows (detached and deleted, or of another account). */
  forget(paymentMethodId: string): void {
    this.methods.delete(paymentMethodId);
  }

  /** A processing payment (a slow bank) comes through. */
  finishProcessing(intentId: string): void {
    const intent = this.intent(intentId);
    if (intent.status === 'processing') intent.status = 'succeeded';
  }

  /** Requests that created a payment intent (a replay of a key is a request too). */
  intentCreations(): FakeRequest[] {
    return this.requests.filter(
      (request) => request.method === 'POST' && request.path === '/v1/payment_intents',
    );
  }

  private async serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of request) text += String(chunk);
    const url = new URL(request.url ?? '/', 'http://fake');
    const method = request.method ?? 'GET';
    const params = Object.fromEntries(
      new URLSearchParams(method === 'GET' ? url.searchParams : text),
    );
    const idempotencyKey = headerOf(request, 'idempotency-key');
    this.requests.push({ method, path: url.pathname, idempotencyKey, params });

    let reply: Sent;
    const failure = this.failures.shift();
    if (failure) {
      reply = sent(failure);
    } else if (!headerOf(request, 'authorization')?.startsWith('Bearer sk_test_')) {
      reply = sent(stripeError(401, 'invalid_request_error', 'Invalid API Key provided'));
    } else if (method === 'POST' && idempotencyKey) {
      const seen = this.replies.get(idempotencyKey);
      if (seen && seen.params !== text) {
        reply = sent(
          stripeError(
            400,
            'idempotency_error',
            'Keys for idempotent requests can only be used with the same parameters they were first used with.',
          ),
        );
      } else if (seen) {
        reply = seen.reply;
      } else {
        reply = sent(this.route(method, url.pathname, params));
        this.replies.set(idempotencyKey, { params: text, reply });
      }
    } else {
      reply = sent(this.route(method, url.pathname, params));
    }
    response.writeHead(reply.status, {
      'content-type': 'application/json',
      'request-id': newId('req'),
    });
    response.end(reply.text);
  }

  private route(method: string, path: string, params: Record<string, string>): Answer {
    const [, version, resource, id, action] = path.split('/');
    if (version !== 'v1') return stripeError(404, 'invalid_request_error', `Unrecognized ${path}`);
    if (method === 'POST' && resource === 'customers' && !id) return this.createCustomer(params);
    if (method === 'GET' && resource === 'payment_methods' && id) return this.retrieveMethod(id);
    if (method === 'POST' && resource === 'refunds' && !id) return this.createRefund(params);
    if (method === 'POST' && resource === 'setup_intents' && !id) {
      const intent = {
        id: newId('seti'),
        customer: params.customer ?? '',
        status: 'requires_payment_method',
      };
      this.setupIntents.set(intent.id, intent);
      return {
        status: 200,
        body: { ...intent, object: 'setup_intent', client_secret: `${intent.id}_secret_x` },
      };
    }
    if (resource === 'payment_intents') {
      if (method === 'POST' && !id) return this.createIntent(params);
      if (method === 'GET' && id === 'search') return this.searchIntents(params.query ?? '');
      if (method === 'GET' && id && !action) {
        const intent = this.intents.get(id);
        return intent ? { status: 200, body: intent } : missing('payment_intent', id);
      }
      if (method === 'POST' && id && action === 'cancel') return this.cancelIntent(id);
      if (method === 'POST' && id && action === 'confirm') return this.confirmIntent(id);
    }
    return stripeError(
      404,
      'invalid_request_error',
      `Unrecognized request URL (${method}: ${path})`,
    );
  }

  private createCustomer(params: Record<string, string>): Answer {
    const id = newId('cus');
    this.customers.set(id, metadataOf(params));
    return { status: 200, body: { id, object: 'customer', metadata: metadataOf(params) } };
  }

  private retrieveMethod(id: string): Answer {
    const method = this.methods.get(id);
    if (!method) return missing('PaymentMethod', id);
    const last4 = { visa: '4242', declined: '0002', authenticate: '3155', processing: '1234' }[
      method.kind
    ];
    return {
      status: 200,
      body: {
        id,
        object: 'payment_method',
        type: 'card',
        customer: method.customer,
        card: { brand: 'visa', last4, exp_month: 12, exp_year: 2099 },
        billing_details: {},
        metadata: {},
      },
    };
  }

  /** The next payment intent created is refused with a 400 of this code (a request Stripe will not take). */
  refuseNextIntent(code: string, message: string): void {
    this.intentRefusal = stripeError(400, 'invalid_request_error', message, { code });
  }

  private intentRefusal: Answer | null = null;

  private createIntent(params: Record<string, string>): Answer {
    const refusal = this.intentRefusal;
    if (refusal) {
      this.intentRefusal = null;
      return refusal;
    }
    if (Number(params.amount) < 50) {
      return stripeError(400, 'invalid_request_error', 'Amount must be at least $0.50 usd', {
        code: 'amount_too_small',
        param: 'amount',
      });
    }
    const method = this.methods.get(params.payment_method ?? '');
    if (!method) return missing('PaymentMethod', params.payment_method ?? '');
    const customer = params.customer ?? null;
    if (customer && !this.customers.has(customer)) return missing('customer', customer);
    if (method.customer && method.customer !== customer) {
      return stripeError(
        400,
        'invalid_request_error',
        'The provided PaymentMethod belongs to another Customer.',
      );
    }
    const id = newId('pi');
    const intent: FakePaymentIntent = {
      id,
      object: 'payment_intent',
      amount: Number(params.amount),
      currency: params.currency ?? 'usd',
      status: 'requires_confirmation',
      client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
      customer,
      payment_method: method.id,
      description: params.description ?? null,
      metadata: metadataOf(params),
      last_payment_error: null,
      next_action: null,
      amount_refunded: 0,
    };
    this.intents.set(id, intent);
    if (params.confirm === 'false') return { status: 200, body: intent };
    return this.confirmIntent(id);
  }

  /** Confirming applies the card's behaviour, as Stripe's test cards do. */
  private confirmIntent(id: string): Answer {
    const intent = this.intents.get(id);
    if (!intent) return missing('payment_intent', id);
    // Already confirmed: its state as it stands.
    if (intent.status !== 'requires_confirmation') return { status: 200, body: intent };
    const method = this.methods.get(intent.payment_method);
    if (!method) return missing('PaymentMethod', intent.payment_method);
    intent.status = 'succeeded';
    if (method.kind === 'processing') intent.status = 'processing';
    if (method.kind === 'authenticate') {
      intent.status = 'requires_action';
      intent.next_action = { type: 'use_stripe_sdk' };
    }
    if (method.kind === 'declined') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { message: FAKE_DECLINE_MESSAGE };
      return stripeError(402, 'card_error', FAKE_DECLINE_MESSAGE, {
        code: 'card_declined',
        decline_code: 'generic_decline',
        payment_intent: intent,
      });
    }
    return { status: 200, body: intent };
  }

  /** Only the query the adapter makes: metadata['charge_key']:'…'. */
  private searchIntents(query: string): Answer {
    const key = /^metadata\['charge_key'\]:'((?:[^'\\]|\\.)*)'$/.exec(query)?.[1];
    if (key === undefined) return stripeError(400, 'invalid_request_error', `Bad query ${query}`);
    const wanted = key.replace(/\\(.)/g, '$1');
    const data = [...this.intents.values()].filter(
      (intent) => intent.metadata.charge_key === wanted,
    );
    return {
      status: 200,
      body: { object: 'search_result', data, has_more: false, url: '/v1/payment_intents/search' },
    };
  }

  private createRefund(params: Record<string, string>): Answer {
    const intent = this.intents.get(params.payment_intent ?? '');
    if (!intent) return missing('payment_intent', params.payment_intent ?? '');
    const amount = Number(params.amount ?? intent.amount - intent.amount_refunded);
    if (intent.status === 'succeeded' && intent.amount_refunded >= intent.amount) {
      return stripeError(
        400,
        'invalid_request_error',
        `Charge ${intent.id} has already been refunded.`,
        {
          code: 'charge_already_refunded',
        },
      );
    }
    if (intent.status !== 'succeeded' || intent.amount_refunded + amount > intent.amount) {
      return stripeError(400, 'invalid_request_error', 'This payment cannot be refunded.');
    }
    intent.amount_refunded += amount;
    const refund = { id: newId('re'), payment_intent: intent.id, amount };
    this.refunds.push(refund);
    return { status: 200, body: { ...refund, object: 'refund', status: 'succeeded' } };
  }

  private cancelIntent(id: string): Answer {
    const intent = this.intents.get(id);
    if (!intent) return missing('payment_intent', id);
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      return stripeError(
        400,
        'invalid_request_error',
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        { code: 'payment_intent_unexpected_state' },
      );
    }
    intent.status = 'canceled';
    intent.next_action = null;
    return { status: 200, body: intent };
  }
}

function headerOf(request: IncomingMessage, name: string): string | null {
  const value = request.headers[name];
  return typeof value === 'string' ? value : null;
}

/** `metadata[charge_key]=…` form fields as the metadata object. */
function metadataOf(params: Record<string, string>): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
    if (key) metadata[key] = value;
  }
  return metadata;
}
