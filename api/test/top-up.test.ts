import {
  AUTHENTICATION_FAILED_MESSAGE,
  CAPTCHA_FAILED_MESSAGE,
  TOP_UP_RANGE_MESSAGE,
  TOP_UP_WHOLE_MESSAGE,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.ts';
import { insertPaymentMethod } from '../src/repositories/payment-methods.ts';
import { newId } from '../src/lib/ids.ts';
import { BuiltinCaptcha } from '../src/adapters/captcha/builtin-captcha.ts';
import {
  IDEMPOTENCY_KEY_REUSED,
  topUpChargeKey,
  topUpCredits,
} from '../src/services/credits/top-up.ts';
import { handlePaymentEvent } from '../src/services/charges/handle-payment-event.ts';
import {
  CARDS,
  FUTURE,
  addCard,
  answerChallenge,
  attach,
  balanceOf,
  confirmSetup,
  setupIntent,
  captchaToken,
  listCards,
  doubleSubmitAnswers,
  SUCCEEDED_ONCE,
} from './support/payments.ts';
import { FaultyGateway } from './support/faulty-gateway.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
} from './support/server.ts';

const URL = '/platform/organizations/acme-pro/billing/credits/top-up';
const SUCCESS = { status: 'succeeded', payment_intent_secret: null };

describe.each(testDatabases())('credit top-ups (%s)', (database) => {
  let server: TestServer;
  const clients: Record<string, TestClient> = {};
  let organizationId: string;
  let ownerId: string;
  let defaultCard: string;

  beforeAll(async () => {
    server = await startTestServer({ database });
    for (const user of ['owner', 'admin', 'developer', 'readonly']) {
      clients[user] = await server.signIn(`${user}@example.com`);
    }
    const db = server.database.db;
    organizationId = await server.organizationId('acme-pro');
    ownerId = (
      await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'owner@example.com')
        .executeTakeFirstOrThrow()
    ).id;
    defaultCard = (await listCards(as('owner'), 'acme-pro')).defaultPaymentMethodId ?? '';
  });
  afterAll(() => server.close());

  const as = (user: string): TestClient => {
    const client = clients[user];
    if (!client) throw new Error(`no client for ${user}`);
    return client;
  };
  const db = () => server.database.db;

  async function topUp(
    client: TestClient,
    key: string | null,
    body: Record<string, unknown>,
    token?: string,
  ) {
    return client.post<{
      status?: string;
      payment_intent_secret?: string | null;
      message?: string;
    }>(
      URL,
      {
        payment_method_id: defaultCard,
        hcaptcha_token: token ?? (await captchaToken(client)),
        ...body,
      },
      key ? { 'idempotency-key': key } : {},
    );
  }

  /** What our ledger and the provider's records hold for one top-up key. */
  async function ledger(key: string) {
    const chargeKey = topUpChargeKey(organizationId, key);
    const charges = await db()
      .selectFrom('charges')
      .select(['status', 'amount_cents', 'failure_message'])
      .where('idempotency_key', '=', chargeKey)
      .execute();
    const intents = await db()
      .selectFrom('simulator_payment_intents')
      .select(['status', 'amount_cents'])
      .where('idempotency_key', '=', chargeKey)
      .execute();
    return { charges, intents };
  }

  it('refuses amounts out of range, fractions, a missing card and a missing captcha with the spec texts', async () => {
    const before = await balanceOf(as('owner'), 'acme-pro');
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 99 }, TOP_UP_RANGE_MESSAGE],
      [{ amount: 2001 }, TOP_UP_RANGE_MESSAGE],
      [{ amount: 150.5 }, TOP_UP_WHOLE_MESSAGE],
      [{ amount: 150, payment_method_id: undefined }, 'Payment method id required'],
      [{ amount: 150, hcaptcha_token: undefined }, 'Captcha not submitted'],
    ];
    for (const [body, message] of cases) {
      const response = await topUp(as('owner'), `invalid-${message}-${String(body.amount)}`, body);
      expect(response, JSON.stringify(body)).toMatchObject({ status: 400, body: { message } });
    }
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);
    const charges = await db()
      .selectFrom('charges')
      .select('id')
      .where('purpose', '=', 'top_up')
      .execute();
    expect(charges).toEqual([]);
  });

  it('tops up 150 with the default card: the balance rises by 15000 cents once, however often the key is sent', async () => {
    const before = await balanceOf(as('owner'), 'acme-pro');
    const token = await captchaToken(as('owner'));
    const first = await topUp(as('owner'), 'top-up-150', { amount: 150 }, token);
    expect(first).toMatchObject({ status: 200, body: SUCCESS });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 15_000);

    // The same request again (its captcha token is spent: the first result answers without it).
    const again = await topUp(as('owner'), 'top-up-150', { amount: 150 }, token);
    expect(again).toMatchObject({ status: 200, body: SUCCESS });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 15_000);
    expect(await ledger('top-up-150')).toEqual({
      charges: [{ status: 'succeeded', amount_cents: 15_000, failure_message: null }],
      intents: [{ status: 'succeeded', amount_cents: 15_000 }],
    });

    // The key is the request: reusing it for another amount is refused.
    const other = await topUp(as('owner'), 'top-up-150', { amount: 200 });
    expect(other.status).toBe(409);
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 15_000);
  });

  it('credits once when the same request arrives twice at the same moment', async () => {
    const before = await balanceOf(as('owner'), 'acme-pro');
    const token = await captchaToken(as('owner'));
    const [a, b] = await Promise.all([
      topUp(as('owner'), 'top-up-twins', { amount: 300 }, token),
      topUp(as('owner'), 'top-up-twins', { amount: 300 }, token),
    ]);
    expect(SUCCEEDED_ONCE).toContainEqual(doubleSubmitAnswers([a, b]));
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 30_000);
    const { charges, intents } = await ledger('top-up-twins');
    expect(charges).toHaveLength(1);
    expect(intents).toHaveLength(1);
  });

  it('credits nothing and charges nothing on a declined card, and answers the decline again on a retry', async () => {
    const declining = await server.gateway.createCard({
      number: CARDS.declined,
      expMonth: FUTURE.exp_month,
      expYear: FUTURE.exp_year,
      cvc: '123',
    });
    const id = newId('pm');
    await insertPaymentMethod(db(), {
      id,
      organizationId,
      provider: server.gateway.provider,
      providerPaymentMethodId: declining.providerPaymentMethodId,
      brand: declining.brand,
      last4: declining.last4,
      expMonth: declining.expMonth,
      expYear: declining.expYear,
      isDefault: false,
    });
    const before = await balanceOf(as('owner'), 'acme-pro');
    const declined = await topUp(as('owner'), 'top-up-declined', {
      amount: 150,
      payment_method_id: id,
      billing_name: 'Someone Else Ltd.',
    });
    expect(declined).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
    const retried = await topUp(as('owner'), 'top-up-declined', {
      amount: 150,
      payment_method_id: id,
      billing_name: 'Someone Else Ltd.',
    });
    expect(retried).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
    // The same key asking for other billing details is another request, not a retry.
    for (const other of [
      {},
      { billing_name: 'Another Name Ltd.' },
      { billing_name: 'Someone Else Ltd.', tax_id: { type: 'eu_vat', value: 'IE6388047V' } },
    ]) {
      const reused = await topUp(as('owner'), 'top-up-declined', {
        amount: 150,
        payment_method_id: id,
        ...other,
      });
      expect(reused, JSON.stringify(other)).toMatchObject({
        status: 409,
        body: { message: IDEMPOTENCY_KEY_REUSED },
      });
    }
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);
    expect(await ledger('top-up-declined')).toEqual({
      charges: [
        { status: 'failed', amount_cents: 15_000, failure_message: 'Your card was declined.' },
      ],
      intents: [{ status: 'failed', amount_cents: 15_000 }],
    });
    // Nothing of the declined request reached the profile either.
    const customer = await as('owner').get<{ billing_name: string }>(
      '/platform/organizations/acme-pro/customer',
    );
    expect(customer.body.billing_name).toBe('Acme Pro Inc.');
    await db().deleteFrom('payment_methods').where('id', '=', id).execute();
  });

  it('with 4000 0027 6000 3184: requires action, and completing the challenge credits once', async () => {
    const card = await addCard(as('owner'), 'acme-pro', CARDS.alwaysAuthenticate);
    const before = await balanceOf(as('owner'), 'acme-pro');
    const asked = await topUp(as('owner'), 'top-up-3ds', { amount: 250, payment_method_id: card });
    expect(asked.status).toBe(200);
    expect(asked.body.status).toBe('requires_action');
    const secret = asked.body.payment_intent_secret ?? '';
    expect(secret).toMatch(/_secret_/);
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);

    // The browser confirms with the intent secret; the challenge appears.
    const confirm = await as('owner').post<{ status: string; challenge: { id: string } }>(
      '/platform/simulator/payment-intents/confirm',
      { client_secret: secret },
    );
    expect(confirm.body.status).toBe('requires_action');
    // Asking again (a double submit) shows the same challenge.
    const reconfirm = await as('owner').post('/platform/simulator/payment-intents/confirm', {
      client_secret: secret,
    });
    expect(reconfirm.body).toEqual(confirm.body);

    const done = await answerChallenge(as('owner'), confirm.body.challenge.id, 'complete');
    expect(done).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 25_000);

    // Everything after changes nothing: the challenge again, the confirm again, the top-up again,
    // the provider's event replayed under another id.
    expect((await answerChallenge(as('owner'), confirm.body.challenge.id, 'complete')).status).toBe(
      200,
    );
    const after = await as('owner').post('/platform/simulator/payment-intents/confirm', {
      client_secret: secret,
    });
    expect(after.body).toEqual({ status: 'succeeded' });
    const retried = await topUp(as('owner'), 'top-up-3ds', {
      amount: 250,
      payment_method_id: card,
    });
    expect(retried.body).toEqual(SUCCESS);
    const { charges, intents } = await ledger('top-up-3ds');
    const providerRef = (
      await db()
        .selectFrom('charges')
        .select('provider_ref')
        .where('idempotency_key', '=', topUpChargeKey(organizationId, 'top-up-3ds'))
        .executeTakeFirstOrThrow()
    ).provider_ref;
    const deps = { db: db(), gateway: server.gateway, clock: systemClock };
    const event = {
      id: 'evt_replayed_3ds',
      type: 'payment_intent.succeeded' as const,
      providerRef: providerRef ?? '',
      chargeKey: null,
    };
    expect(await handlePaymentEvent(deps, event)).toBe('applied');
    expect(await handlePaymentEvent(deps, event)).toBe('duplicate');
    // A late failure event (out of order) does not undo it either.
    await handlePaymentEvent(deps, {
      id: 'evt_late_failure',
      type: 'payment_intent.payment_failed',
      providerRef: providerRef ?? '',
      chargeKey: null,
      message: 'Your card was declined.',
    });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 25_000);
    expect(charges).toEqual([{ status: 'succeeded', amount_cents: 25_000, failure_message: null }]);
    expect(intents).toEqual([{ status: 'succeeded', amount_cents: 25_000 }]);
    expect((await ledger('top-up-3ds')).charges[0]?.status).toBe('succeeded');
  });

  it('with 4000 0027 6000 3184: failing the challenge changes nothing', async () => {
    const card = (await listCards(as('owner'), 'acme-pro')).data.find(
      (method) => method.card.last4 === '3184',
    );
    const before = await balanceOf(as('owner'), 'acme-pro');
    const asked = await topUp(as('owner'), 'top-up-3ds-fail', {
      amount: 400,
      payment_method_id: card?.id,
    });
    expect(asked.body.status).toBe('requires_action');
    const confirm = await as('owner').post<{ challenge: { id: string } }>(
      '/platform/simulator/payment-intents/confirm',
      { client_secret: asked.body.payment_intent_secret },
    );
    const failed = await answerChallenge(as('owner'), confirm.body.challenge.id, 'fail');
    expect(failed).toMatchObject({ status: 402, body: { message: AUTHENTICATION_FAILED_MESSAGE } });
    expect((await answerChallenge(as('owner'), confirm.body.challenge.id, 'complete')).status).toBe(
      402,
    );
    const retried = await topUp(as('owner'), 'top-up-3ds-fail', {
      amount: 400,
      payment_method_id: card?.id,
    });
    expect(retried).toMatchObject({
      status: 402,
      body: { message: AUTHENTICATION_FAILED_MESSAGE },
    });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);
    expect(await ledger('top-up-3ds-fail')).toEqual({
      charges: [
        { status: 'failed', amount_cents: 40_000, failure_message: AUTHENTICATION_FAILED_MESSAGE },
      ],
      intents: [{ status: 'failed', amount_cents: 40_000 }],
    });
  });

  it('with 4000 0025 0000 3155 authenticated when saved: charged at once, not asked a second time', async () => {
    const secret = await setupIntent(as('owner'), 'acme-pro');
    const saving = await confirmSetup(as('owner'), secret, CARDS.authenticate);
    expect(saving.body.status).toBe('requires_action');
    if (saving.body.status !== 'requires_action') return;
    expect((await answerChallenge(as('owner'), saving.body.challenge.id, 'complete')).status).toBe(
      200,
    );
    const attached = await attach(as('owner'), 'acme-pro', saving.body.setup_intent_id);
    expect(attached.status).toBe(200);

    const before = await balanceOf(as('owner'), 'acme-pro');
    const paid = await topUp(as('owner'), 'top-up-3155-saved', {
      amount: 130,
      payment_method_id: attached.body.id,
    });
    expect(paid).toMatchObject({ status: 200, body: SUCCESS });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 13_000);
    expect(await ledger('top-up-3155-saved')).toEqual({
      charges: [{ status: 'succeeded', amount_cents: 13_000, failure_message: null }],
      intents: [{ status: 'succeeded', amount_cents: 13_000 }],
    });
  });

  it.each(['before', 'after'] as const)(
    'a crash %s the provider call leaves no credit; the retry with the key completes once',
    async (when) => {
      const captcha = new BuiltinCaptcha(db(), systemClock);
      const broken = {
        db: db(),
        gateway: new FaultyGateway(server.gateway).fail('charge', when),
        clock: systemClock,
        captcha,
      };
      const key = `top-up-crash-${when}`;
      const input = {
        organizationId,
        userId: ownerId,
        audit: {
          actor: { type: 'user' as const, id: ownerId, email: 'owner@example.com' },
          ip: null,
          user_agent: null,
        },
        idempotencyKey: key,
        body: {
          amount: 120,
          payment_method_id: defaultCard,
          hcaptcha_token: await captcha.issue(ownerId),
        },
      };
      const before = await balanceOf(as('owner'), 'acme-pro');
      await expect(topUpCredits(broken, input)).rejects.toThrow();
      expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);
      const halfway = await ledger(key);
      expect(halfway.charges).toEqual([
        { status: 'pending', amount_cents: 12_000, failure_message: null },
      ]);
      expect(halfway.intents).toHaveLength(when === 'before' ? 0 : 1);

      // The retry (its captcha token is spent: not checked again) finishes the same charge.
      expect(await topUpCredits(broken, input)).toEqual(SUCCESS);
      expect(await topUpCredits(broken, input)).toEqual(SUCCESS);
      expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 12_000);
      expect(await ledger(key)).toEqual({
        charges: [{ status: 'succeeded', amount_cents: 12_000, failure_message: null }],
        intents: [{ status: 'succeeded', amount_cents: 12_000 }],
      });
    },
  );

  it("refuses another organization's card, a spent captcha and bad billing details, charging nothing", async () => {
    const before = await balanceOf(as('owner'), 'acme-pro');
    const teamCard = (await listCards(as('owner'), 'acme-team')).data[0]?.id;
    const foreign = await topUp(as('owner'), 'top-up-foreign', {
      amount: 150,
      payment_method_id: teamCard,
    });
    expect(foreign.status).toBe(404);
    const token = await captchaToken(as('owner'));
    expect((await topUp(as('owner'), 'top-up-spent-1', { amount: 100 }, token)).status).toBe(200);
    const spent = await topUp(as('owner'), 'top-up-spent-2', { amount: 100 }, token);
    expect(spent).toMatchObject({ status: 400, body: { message: CAPTCHA_FAILED_MESSAGE } });
    const badAddress = await topUp(as('owner'), 'top-up-bad-address', {
      amount: 100,
      address: { line1: 'x', city: 'Dublin', postal_code: 'D02', country: 'IE' },
    });
    expect(badAddress).toMatchObject({
      status: 400,
      body: { message: 'Address line 1 must be at least 3 characters' },
    });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 10_000);
    for (const key of ['top-up-foreign', 'top-up-spent-2', 'top-up-bad-address']) {
      expect(await ledger(key), key).toEqual({ charges: [], intents: [] });
    }
  });

  it('takes no money for credit an organization billed via a partner could never use', async () => {
    const response = await as('owner').post(
      '/platform/organizations/aws-co/billing/credits/top-up',
      {
        amount: 150,
        payment_method_id: defaultCard,
        hcaptcha_token: await captchaToken(as('owner')),
      },
      { 'idempotency-key': 'top-up-partner' },
    );
    expect(response.status).toBe(409);
    const charges = await db()
      .selectFrom('charges')
      .select('id')
      .where('idempotency_key', 'like', '%top-up-partner')
      .execute();
    expect(charges).toEqual([]);
  });

  it('applies the billing name, address and tax ID it carries once the charge succeeds', async () => {
    const response = await topUp(as('owner'), 'top-up-profile', {
      amount: 100,
      billing_name: 'Acme Pro Holdings',
      address: { line1: '5 Harbour Road', city: 'Cork', postal_code: 'T12 X', country: 'ie' },
      tax_id: { type: 'eu_vat', value: '6388047V' },
    });
    expect(response).toMatchObject({ status: 200, body: SUCCESS });
    const customer = await as('owner').get('/platform/organizations/acme-pro/customer');
    expect(customer.body).toMatchObject({
      billing_name: 'Acme Pro Holdings',
      address: { line1: '5 Harbour Road', city: 'Cork', postal_code: 'T12 X', country: 'IE' },
    });
    const taxId = await as('owner').get('/platform/organizations/acme-pro/tax-ids');
    expect(taxId.body).toEqual({ tax_id: { type: 'eu_vat', value: 'IE6388047V', country: 'IE' } });
  });

  it.each(['developer', 'readonly'])('answers 403 to %s and charges nothing', async (user) => {
    const before = await balanceOf(as('owner'), 'acme-pro');
    const response = await topUp(as(user), `top-up-${user}`, { amount: 150 });
    expect(response.status).toBe(403);
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);
    expect(await ledger(`top-up-${user}`)).toEqual({ charges: [], intents: [] });
  });
});
