import { type InvoicePaymentResponse, type PaymentMethods } from '@meterline/domain';
import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';
import { insertPaymentMethod } from '../../src/repositories/payment-methods.ts';
import { newId } from '../../src/lib/ids.ts';
import type { PaymentGateway } from '../../src/adapters/payment-gateway.ts';
import type { TestClient, TestResponse } from './server.ts';

/** Any future expiry works with the simulator's test cards. */
export const FUTURE = { exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 };

export const CARDS = {
  visa: '4242424242424242',
  declined: '4000000000000002',
  insufficient: '4000000000009995',
  /** Asks for 3-D Secure once: when saved (then never again) or when paid with unsaved. */
  authenticate: '4000002500003155',
  /** Asks for 3-D Secure on every payment, however it was saved. */
  alwaysAuthenticate: '4000002760003184',
} as const;

export function card(number: string, cvc = '123') {
  return { number, ...FUTURE, cvc };
}

export async function captchaToken(client: TestClient): Promise<string> {
  const response = await client.post<{ token: string }>('/platform/captcha');
  expect(response.status).toBe(200);
  return response.body.token;
}

export async function setupIntent(client: TestClient, slug: string): Promise<string> {
  const response = await client.post<{ client_secret: string }>(
    `/platform/organizations/${slug}/payments/setup-intent`,
    { hcaptchaToken: await captchaToken(client) },
  );
  expect(response.status).toBe(200);
  return response.body.client_secret;
}

export type SetupConfirm =
  | { status: 'succeeded'; setup_intent_id: string }
  | { status: 'requires_action'; setup_intent_id: string; challenge: { id: string } };

export function confirmSetup(
  client: TestClient,
  clientSecret: string,
  number: string,
): Promise<TestResponse<SetupConfirm & { message?: string }>> {
  return client.post('/platform/simulator/setup-intents/confirm', {
    client_secret: clientSecret,
    card: card(number),
  });
}

export function attach(client: TestClient, slug: string, setupIntentId: string) {
  return client.post<
    { id: string; is_default: boolean; card: { last4: string } } & {
      message?: string;
    }
  >(`/platform/organizations/${slug}/payments/attach`, { setup_intent_id: setupIntentId });
}

/** The simulator's stand-in for the provider's tokenization in the browser: a one-off payment method. */
export function tokenize(client: TestClient, number: string) {
  return client.post<{ id: string; message?: string }>('/platform/simulator/payment-methods', {
    card: card(number),
  });
}

/** Tokenizes a card that the simulator accepts, and answers its payment method id. */
export async function paymentMethod(client: TestClient, number: string): Promise<string> {
  const response = await tokenize(client, number);
  expect(response.status).toBe(200);
  return response.body.id;
}

/** What the browser's port does with a payment intent's client secret: confirms it (3-D Secure). */
export function confirmPayment(client: TestClient, clientSecret: string) {
  return client.post<{ status?: string; challenge?: { id: string }; message?: string }>(
    '/platform/simulator/payment-intents/confirm',
    { client_secret: clientSecret },
  );
}

export function answerChallenge(client: TestClient, id: string, outcome: 'complete' | 'fail') {
  return client.post<{ status?: string; message?: string; setup_intent_id?: string }>(
    `/platform/simulator/challenges/${id}`,
    { outcome },
  );
}

/** Adds a card the way the browser does: captcha, setup intent, confirm (and challenge), attach. */
export async function addCard(client: TestClient, slug: string, number: string): Promise<string> {
  const secret = await setupIntent(client, slug);
  const confirmed = await confirmSetup(client, secret, number);
  expect(confirmed.status).toBe(200);
  if (confirmed.body.status === 'requires_action') {
    const done = await answerChallenge(client, confirmed.body.challenge.id, 'complete');
    expect(done.status).toBe(200);
  }
  const attached = await attach(client, slug, confirmed.body.setup_intent_id);
  expect(attached.status).toBe(200);
  return attached.body.id;
}

export async function balanceOf(client: TestClient, slug: string): Promise<number> {
  const response = await client.get<{ customer_balance: number }>(
    `/platform/organizations/${slug}/billing/subscription`,
  );
  expect(response.status).toBe(200);
  return response.body.customer_balance;
}

/** A payment's answer: what the route answers on success, or an error's message. */
export type PayAnswer = Partial<InvoicePaymentResponse> & { message?: string };

export async function listCards(client: TestClient, slug: string): Promise<PaymentMethods> {
  const response = await client.get<PaymentMethods>(`/platform/organizations/${slug}/payments`, {
    version: '2',
  });
  expect(response.status).toBe(200);
  return response.body;
}

/** An invoice as Pay Now leaves it: status, amounts and its Pay Now charges (the engine's are left out). */
export async function invoicePaymentState(db: Db, invoiceId: string) {
  const invoice = await db
    .selectFrom('invoices')
    .select(['status', 'amount_paid_cents', 'amount_due_cents'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  const charges = await db
    .selectFrom('charges')
    .select('status')
    .where('invoice_id', '=', invoiceId)
    // Pay Now's charges (a reopened invoice keeps the engine's earlier one).
    .where('idempotency_key', 'like', '%:pay:%')
    .execute();
  return {
    ...invoice,
    charges: charges.length,
    succeeded: charges.filter((charge) => charge.status === 'succeeded').length,
  };
}

/**
 * The organization's `skip`-th newest invoice with an amount due (counting every status, so earlier
 * calls do not shift later ones) reopened, as if its charge had failed.
 */
export async function reopenInvoice(db: Db, slug: string, skip: number): Promise<string> {
  const paid = await db
    .selectFrom('invoices')
    .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
    .select('invoices.id')
    .where('organizations.slug', '=', slug)
    .where('invoices.amount_due_cents', '>', 0)
    .orderBy('invoices.sequence', 'desc')
    .offset(skip)
    .limit(1)
    .executeTakeFirstOrThrow();
  await db
    .updateTable('invoices')
    .set({ status: 'open', paid_at: null, amount_paid_cents: 0 })
    .where('id', '=', paid.id)
    .execute();
  return paid.id;
}

/** The id of the organization with this slug. */
export { organizationIdOf } from './server.ts';

/**
 * A past invoice reopened (see reopenInvoice) with its automatic retry due at `at`, its attempt count set
 * past the history's so a test's attempts never reuse the keys of the demo story's.
 */
export async function dueInvoice(
  db: Db,
  slug: string,
  skip: number,
  at: Date,
  attempts = 10,
): Promise<string> {
  const id = await reopenInvoice(db, slug, skip);
  await db
    .updateTable('invoices')
    .set({ next_payment_attempt_at: at, attempt_count: attempts })
    .where('id', '=', id)
    .execute();
  return id;
}

/** Saves the simulator's declining test card as the organization's default, straight into the store. */
export async function addDecliningDefaultCard(
  server: { database: { db: Db }; gateway: PaymentGateway },
  organizationId: string,
): Promise<void> {
  const declining = await server.gateway.createCard({
    number: CARDS.declined,
    expMonth: 12,
    expYear: new Date().getUTCFullYear() + 2,
    cvc: '123',
  });
  await insertPaymentMethod(server.database.db, {
    id: newId('pm'),
    organizationId,
    provider: server.gateway.provider,
    providerPaymentMethodId: declining.providerPaymentMethodId,
    brand: declining.brand,
    last4: declining.last4,
    expMonth: declining.expMonth,
    expYear: declining.expYear,
    isDefault: true,
  });
}

/**
 * What two requests sent at once with one Idempotency-Key answer. The one that made the charge answers its
 * outcome; the other may read the provider while the charge is still being confirmed there, and then answers
 * `processing` (the page polls). Sorted, so the order the two finished in does not matter.
 */
export function doubleSubmitAnswers(answers: { status: number; body: { status?: unknown } }[]) {
  return {
    statuses: answers.map((answer) => answer.status),
    settled: answers.map((answer) => answer.body.status).sort(),
  };
}

/** The answers {@link doubleSubmitAnswers} accepts for a double submit that succeeded once. */
export const SUCCEEDED_ONCE = [
  { statuses: [200, 200], settled: ['succeeded', 'succeeded'] },
  { statuses: [200, 200], settled: ['processing', 'succeeded'] },
];
