import { describe, expect, it } from 'vitest';
import { testDatabases, useSignedInServer } from './support/server.ts';

const KEY = 'test-metering-key-0123456789';
const ORG = '/platform/organizations/acme-pro';
const NUL = 'a\u0000b';
/** Half a surrogate pair: JSON escapes it ("\udfff"), PostgreSQL refuses it in jsonb. */
const LONE_SURROGATE = 'a\udfffb';
const LONG = 'x'.repeat(5000);
const CARD = { number: '4242424242424242', exp_month: 12, exp_year: 2099, cvc: '123' };
const TOP_UP = { payment_method_id: 'pm_0123456789abcdef', amount: 100, hcaptcha_token: 'token' };
const ADDRESS = { line1: '1 Main Street', city: 'Dublin', postal_code: 'D02', country: 'IE' };
const EVENT = { id: 'e-1', project_ref: 'acmepro1', metric: 'EGRESS', usage: 1, timestamp: 1e9 };

interface BadRequest {
  method: string;
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** The field the answer must name (HEAD answers carry no message). */
  names: RegExp | null;
}

/**
 * Each request carries one bad value a client can send: a number past its bound (an int4 overflow in
 * SQL), a day that is no calendar day or out of range, a NUL character (PostgreSQL refuses it in text),
 * an overlong string. Each once answered 500, or could; each must answer 400 naming the field.
 */
const CASES: BadRequest[] = [
  // Invoices
  { method: 'GET', path: `${ORG}/billing/invoices?offset=3000000000`, names: /offset/ },
  { method: 'HEAD', path: `${ORG}/billing/invoices?offset=3000000000`, names: null },
  { method: 'GET', path: `${ORG}/billing/invoices?offset=1.5`, names: /offset/ },
  { method: 'GET', path: `${ORG}/billing/invoices?limit=1e10`, names: /limit/ },
  { method: 'GET', path: `${ORG}/billing/invoices/in_a%00b`, names: /Invoice ID/ },
  // Longer than the id's 64 characters, shorter than the router's 100 (which answers 414).
  { method: 'GET', path: `${ORG}/billing/invoices/in_${'x'.repeat(80)}/pdf`, names: /Invoice ID/ },
  {
    method: 'GET',
    path: '/platform/organizations/acme%00pro/billing/invoices/in_abc/payment-link',
    names: /Slug/,
  },
  { method: 'POST', path: `${ORG}/billing/invoices/in_a%00b/pay`, body: TOP_UP, names: /Invoice/ },
  {
    method: 'POST',
    path: `${ORG}/billing/invoices/in_abc/pay`,
    body: { payment_method_id: NUL },
    names: /Payment method id/,
  },
  // Organizations, projects, partners: path parameters and text that reach SQL
  { method: 'GET', path: '/platform/organizations/acme%00pro', names: /Slug/ },
  { method: 'GET', path: '/platform/organizations/ACME-PRO/billing/plans', names: /Slug/ },
  { method: 'PATCH', path: ORG, body: { name: NUL }, names: /Organization name/ },
  { method: 'PATCH', path: ORG, body: { billing_email: `a${NUL}@example.com` }, names: /email/ },
  {
    method: 'PATCH',
    path: ORG,
    body: { additional_billing_emails: [`${LONG}@example.com`] },
    names: /email/,
  },
  { method: 'GET', path: '/platform/projects/acme%00pro1', names: /Project ref/ },
  {
    method: 'GET',
    path: '/platform/integrations/vercel/installations/a%00b/link',
    names: /installationId/,
  },
  // Usage
  { method: 'GET', path: `${ORG}/usage/daily?start=2024-02-30&end=2024-03-01`, names: /start/ },
  { method: 'GET', path: `${ORG}/usage/daily?start=0000-01-01&end=0000-01-02`, names: /start/ },
  { method: 'GET', path: `${ORG}/usage/daily?start=2024-01-01&end=2024-13-01`, names: /end/ },
  { method: 'GET', path: `${ORG}/usage/daily?start=1999-12-31&end=2000-01-01`, names: /start/ },
  { method: 'GET', path: `${ORG}/usage/daily?start=2100-12-31&end=2101-01-01`, names: /end/ },
  {
    method: 'GET',
    path: `${ORG}/usage/daily?start=2024-01-01&end=2024-01-02&projectRef=a%00b`,
    names: /Project ref/,
  },
  {
    method: 'POST',
    path: '/internal/usage-events',
    body: { events: [{ ...EVENT, id: NUL }] },
    names: /id/,
  },
  {
    method: 'POST',
    path: '/internal/usage-events',
    body: { events: [{ ...EVENT, usage: 1e300 }] },
    names: /usage/,
  },
  {
    method: 'POST',
    path: '/internal/usage-events',
    body: { events: [{ ...EVENT, timestamp: -1 }] },
    names: /timestamp/,
  },
  // Customer and tax ID
  {
    method: 'PUT',
    path: `${ORG}/customer`,
    body: { billing_name: `Acme ${NUL}` },
    names: /Name/,
  },
  {
    method: 'PUT',
    path: `${ORG}/customer`,
    body: { billing_name: 'Acme', address: { ...ADDRESS, line1: `1 Main ${NUL}` } },
    names: /Address line 1/,
  },
  {
    method: 'PATCH',
    path: `${ORG}/customer`,
    body: { billing_name: 'Acme', address: { ...ADDRESS, state: NUL } },
    names: /State/,
  },
  {
    method: 'PUT',
    path: `${ORG}/tax-ids`,
    body: { type: 'eu_vat', value: `IE${NUL}`, country: 'IE' },
    names: /Tax ID/,
  },
  {
    method: 'PUT',
    path: `${ORG}/tax-ids`,
    body: { type: LONG, value: 'IE1234567T', country: 'IE' },
    names: /Tax ID type/,
  },
  // Payment methods
  {
    method: 'PUT',
    path: `${ORG}/payments/default`,
    body: { payment_method_id: NUL },
    names: /Payment method id/,
  },
  { method: 'DELETE', path: `${ORG}/payments`, body: { card_id: NUL }, names: /Card id/ },
  {
    method: 'POST',
    path: `${ORG}/payments/attach`,
    body: { setup_intent_id: NUL },
    names: /Setup intent id/,
  },
  {
    method: 'POST',
    path: `${ORG}/payments/setup-intent`,
    body: { hcaptchaToken: NUL },
    names: /Captcha/,
  },
  // Top-up
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: { ...TOP_UP, payment_method_id: NUL },
    names: /Payment method id/,
  },
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: { ...TOP_UP, amount: 1e300 },
    names: /Amount/,
  },
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: { ...TOP_UP, billing_name: NUL },
    names: /Name/,
  },
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: { ...TOP_UP, address: { ...ADDRESS, city: NUL } },
    names: /City/,
  },
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: { ...TOP_UP, tax_id: { type: 'eu_vat', value: NUL } },
    names: /Tax ID/,
  },
  // Found by the fuzz suite: the charge keeps the billing profile as jsonb, which refused it with a 500.
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: { ...TOP_UP, address: { ...ADDRESS, city: LONE_SURROGATE } },
    names: /City/,
  },
  {
    method: 'PUT',
    path: `${ORG}/customer`,
    body: { billing_name: `Acme ${LONE_SURROGATE}` },
    names: /Name/,
  },
  {
    method: 'POST',
    path: '/platform/feedback/upgrade',
    body: {
      orgSlug: 'acme-pro',
      prevPlan: 'free',
      currentPlan: 'pro',
      reasons: [`More ${LONE_SURROGATE}`],
    },
    names: /reason/,
  },
  {
    method: 'POST',
    path: `${ORG}/billing/credits/top-up`,
    body: TOP_UP,
    headers: { 'idempotency-key': 'two words' },
    names: /Idempotency-Key/,
  },
  // The simulator (the provider's browser side)
  {
    method: 'POST',
    path: '/platform/simulator/setup-intents/confirm',
    body: { client_secret: NUL, card: CARD },
    names: /Client secret/,
  },
  {
    method: 'POST',
    path: '/platform/simulator/payment-intents/confirm',
    body: { client_secret: NUL },
    names: /Client secret/,
  },
  {
    method: 'POST',
    path: '/platform/simulator/challenges/chl_a%00b',
    body: { outcome: 'complete' },
    names: /Challenge id/,
  },
  {
    method: 'POST',
    path: '/platform/simulator/payment-methods',
    body: { card: { ...CARD, exp_year: 1e12 } },
    names: /exp_year|Expiry year/,
  },
  // Signing in, and the provider's webhook
  {
    method: 'POST',
    path: '/platform/auth/sign-in',
    body: { email: 'owner@example.com', password: LONG },
    names: /password/,
  },
  {
    method: 'POST',
    path: '/platform/webhooks/stripe',
    body: {},
    headers: { 'stripe-signature': LONG },
    names: /stripe-signature|Stripe-Signature/,
  },
];

describe.each(testDatabases())('bad input answers 400 naming the field (%s)', (database) => {
  const { as } = useSignedInServer({ database, env: { METERING_API_KEY: KEY } });

  it.each(CASES.map((bad) => [`${bad.method} ${bad.path.slice(0, 100)}`, bad] as const))(
    '%s',
    async (_name, bad) => {
      const headers = { ...bad.headers };
      if (bad.path.startsWith('/internal/')) headers.authorization = `Bearer ${KEY}`;
      const response = await as('owner').request<{ message?: string }>(
        bad.method,
        bad.path,
        bad.body,
        headers,
      );
      expect(response.status).toBe(400);
      if (bad.names) expect(response.body.message).toMatch(bad.names);
    },
  );
});
