import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.ts';
import { topUpChargeKey } from '../src/services/credits/top-up.ts';
import { balanceOf } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const SECRET_KEY = 'sk_test_meterlineNeverLeavesTheServer';
const PUBLISHABLE_KEY = 'pk_test_meterlinePublic';
const WEBHOOK_SECRET = 'whsec_meterlineWebhookSigningSecret';
const HCAPTCHA_SECRET = '0x0000000000000000000000000000000000000000';
const URL = '/platform/webhooks/stripe';

describe.each(testDatabases())('Stripe webhooks (%s)', (database) => {
  let server: TestServer;
  let owner: TestClient;
  let organizationId: string;

  beforeAll(async () => {
    // Stripe and hCaptcha configured; nothing here reaches either (no network in tests).
    server = await startTestServer({
      database,
      env: {
        STRIPE_SECRET_KEY: SECRET_KEY,
        STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        HCAPTCHA_SITE_KEY: '10000000-ffff-ffff-ffff-000000000001',
        HCAPTCHA_SECRET,
      },
    });
    owner = await server.signIn('owner@example.com');
    organizationId = await server.organizationId('acme-pro');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const now = () => Math.floor(Date.now() / 1000);

  /** A top-up charge as the service leaves it while the provider settles it. */
  async function charge(
    key: string,
    providerRef: string | null,
    status: 'pending' | 'requires_action',
  ) {
    await db()
      .insertInto('charges')
      .values({
        id: newId('ch'),
        organization_id: organizationId,
        invoice_id: null,
        purpose: 'top_up',
        amount_cents: 20_000,
        payment_method_id: null,
        idempotency_key: topUpChargeKey(organizationId, key),
        status,
        provider_ref: providerRef,
        updated_at: new Date(),
      })
      .execute();
  }

  const chargeStatus = async (key: string) =>
    (
      await db()
        .selectFrom('charges')
        .select('status')
        .where('idempotency_key', '=', topUpChargeKey(organizationId, key))
        .executeTakeFirstOrThrow()
    ).status;

  function event(id: string, type: string, intent: string, extra: Record<string, unknown> = {}) {
    return {
      id,
      object: 'event',
      type,
      api_version: '2025-01-01',
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: { id: intent, object: 'payment_intent', metadata: {}, ...extra } },
    };
  }

  /** Sends an event as Stripe does: the exact body, signed, with no session and no CSRF token. */
  function send(
    body: unknown,
    options: { secret?: string; timestamp?: number; payload?: string } = {},
  ) {
    const payload = options.payload ?? JSON.stringify(body);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });
    return server
      .client()
      .request<{ received?: boolean; handled?: boolean; message?: string }>(
        'POST',
        URL,
        body,
        { 'stripe-signature': signature },
        { csrf: false },
      );
  }

  it('gives the browser the publishable key and the hCaptcha site key, never a secret', async () => {
    const response = await owner.get('/platform/payments/config');
    expect(response.body).toEqual({
      payment_provider: 'stripe',
      publishable_key: PUBLISHABLE_KEY,
      captcha: { provider: 'hcaptcha', site_key: '10000000-ffff-ffff-ffff-000000000001' },
    });
    const text = JSON.stringify(response.body);
    for (const secret of [SECRET_KEY, WEBHOOK_SECRET, HCAPTCHA_SECRET])
      expect(text).not.toContain(secret);
    // The simulator's browser side and the built-in captcha are not there with the real providers.
    const confirm = await owner.post('/platform/simulator/setup-intents/confirm', {});
    expect(confirm.status).toBe(404);
    expect((await owner.post('/platform/captcha')).status).toBe(409);
  });

  it('credits a top-up on payment_intent.succeeded once, however often the event is delivered', async () => {
    await charge('wh-once', 'pi_test_once', 'requires_action');
    const before = await balanceOf(owner, 'acme-pro');
    const succeeded = event('evt_once_1', 'payment_intent.succeeded', 'pi_test_once', {
      status: 'succeeded',
    });
    expect((await send(succeeded)).body).toEqual({ received: true, handled: true });
    expect(await balanceOf(owner, 'acme-pro')).toBe(before + 20_000);

    // The same event again, and the same news under another event id: nothing more.
    expect((await send(succeeded)).body).toEqual({ received: true, handled: false });
    const twin = event('evt_once_2', 'payment_intent.succeeded', 'pi_test_once');
    expect((await send(twin)).status).toBe(200);
    // An older failure arriving late does not undo it.
    const late = event('evt_once_0', 'payment_intent.payment_failed', 'pi_test_once', {
      last_payment_error: { message: 'Your card was declined.' },
    });
    expect((await send(late)).status).toBe(200);
    expect(await chargeStatus('wh-once')).toBe('succeeded');
    expect(await balanceOf(owner, 'acme-pro')).toBe(before + 20_000);
  });

  it('settles a charge failed, then succeeded when the provider says the money moved after all: once', async () => {
    await charge('wh-order', 'pi_test_order', 'requires_action');
    const before = await balanceOf(owner, 'acme-pro');
    const failed = event('evt_order_1', 'payment_intent.payment_failed', 'pi_test_order', {
      last_payment_error: { message: 'We are unable to authenticate your payment method.' },
    });
    expect((await send(failed)).status).toBe(200);
    expect(await chargeStatus('wh-order')).toBe('failed');
    expect(await balanceOf(owner, 'acme-pro')).toBe(before);

    const succeeded = event('evt_order_2', 'payment_intent.succeeded', 'pi_test_order');
    expect((await send(succeeded)).status).toBe(200);
    expect(
      (await send(event('evt_order_3', 'payment_intent.succeeded', 'pi_test_order'))).status,
    ).toBe(200);
    expect(await chargeStatus('wh-order')).toBe('succeeded');
    expect(await balanceOf(owner, 'acme-pro')).toBe(before + 20_000);
  });

  it('finds a charge interrupted before it learnt its intent by the charge key the intent carries', async () => {
    await charge('wh-crash', null, 'pending');
    const before = await balanceOf(owner, 'acme-pro');
    const succeeded = event('evt_crash', 'payment_intent.succeeded', 'pi_test_crash', {
      metadata: { charge_key: topUpChargeKey(organizationId, 'wh-crash') },
    });
    expect((await send(succeeded)).body).toEqual({ received: true, handled: true });
    expect(await chargeStatus('wh-crash')).toBe('succeeded');
    expect(await balanceOf(owner, 'acme-pro')).toBe(before + 20_000);
  });

  it('refuses a bad signature, a tampered body, an old timestamp and a missing signature', async () => {
    await charge('wh-forged', 'pi_test_forged', 'requires_action');
    const before = await balanceOf(owner, 'acme-pro');
    const forged = event('evt_forged', 'payment_intent.succeeded', 'pi_test_forged');

    const wrongSecret = await send(forged, { secret: 'whsec_someoneElse' });
    expect(wrongSecret.status).toBe(400);
    expect(wrongSecret.body.message).toMatch(/signature/i);

    const signedOther = JSON.stringify(event('evt_forged', 'payment_intent.succeeded', 'pi_other'));
    expect((await send(forged, { payload: signedOther })).status).toBe(400);

    const old = await send(forged, { timestamp: now() - 10 * 60 });
    expect(old.status).toBe(400);
    expect(old.body.message).toMatch(/tolerance|timestamp/i);
    expect((await send(forged, { timestamp: now() + 10 * 60 })).status).toBe(400);

    const unsigned = await server.client().request('POST', URL, forged, {}, { csrf: false });
    expect(unsigned.status).toBe(400);

    expect(await chargeStatus('wh-forged')).toBe('requires_action');
    expect(await balanceOf(owner, 'acme-pro')).toBe(before);
    // The same event, properly signed and fresh, is applied (it was never recorded as seen).
    expect((await send(forged)).body).toEqual({ received: true, handled: true });
    expect(await balanceOf(owner, 'acme-pro')).toBe(before + 20_000);
  });

  it('acknowledges events it does not handle', async () => {
    const other = event('evt_other', 'customer.created', 'cus_123');
    expect((await send(other)).body).toEqual({ received: true, handled: false });
  });
});
