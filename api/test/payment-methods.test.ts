import {
  AUTHENTICATION_FAILED_MESSAGE,
  CAPTCHA_FAILED_MESSAGE,
  DEFAULT_CARD_DELETE_MESSAGE,
  cardBadges,
  paymentMethodsSchema,
} from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { handlePaymentEvent } from '../src/services/charges/handle-payment-event.ts';
import {
  CARDS,
  addCard,
  answerChallenge,
  attach,
  captchaToken,
  confirmSetup,
  listCards,
  setupIntent,
} from './support/payments.ts';
import { testDatabases, useSignedInServer } from './support/server.ts';

describe.each(testDatabases())('payment methods (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });

  const db = () => server().database.db;
  const countCards = async (slug: string) =>
    Number(
      (
        await db()
          .selectFrom('payment_methods')
          .innerJoin('organizations', 'organizations.id', 'payment_methods.organization_id')
          .select((eb) => eb.fn.countAll<string>().as('count'))
          .where('organizations.slug', '=', slug)
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('lists acme-pro: the default Visa 4242 and a Mastercard 4444 expiring this month', async () => {
    const list = paymentMethodsSchema.parse(await listCards(as('owner'), 'acme-pro'));
    expect(list.data.map((method) => method.card.last4)).toEqual(['4242', '4444']);
    const [visa, mastercard] = list.data;
    if (!visa || !mastercard) throw new Error('expected two cards');
    expect(visa).toMatchObject({ is_default: true, card: { brand: 'visa' } });
    expect(list.defaultPaymentMethodId).toBe(visa?.id);
    expect(mastercard).toMatchObject({ is_default: false, card: { brand: 'mastercard' } });
    const now = Math.floor(Date.now() / 1000);
    expect(cardBadges(visa, now)).toEqual(['Active']);
    expect(cardBadges(mastercard, now)).toEqual(['Expiring soon']);
    // Developers may read the cards; read-only members may not.
    expect((await as('developer').get('/platform/organizations/acme-pro/payments')).status).toBe(
      200,
    );
    expect((await as('readonly').get('/platform/organizations/acme-pro/payments')).status).toBe(
      403,
    );
    expect((await as('outsider').get('/platform/organizations/acme-pro/payments')).status).toBe(
      404,
    );
  });

  it("says each card's last charge: restricted-co's default declined, acme-pro's Visa paid", async () => {
    const restricted = paymentMethodsSchema.parse(await listCards(as('owner'), 'restricted-co'));
    const declining = restricted.data.find((method) => method.is_default);
    // The engine's latest attempt at its overdue invoice, as the charges table has it.
    const attempt = await db()
      .selectFrom('charges')
      .innerJoin('organizations', 'organizations.id', 'charges.organization_id')
      .select(['charges.created_at', 'charges.failure_message'])
      .where('organizations.slug', '=', 'restricted-co')
      .where('charges.status', '=', 'failed')
      .orderBy('charges.created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(declining?.last_charge).toEqual({
      status: 'declined',
      at: Math.floor(attempt.created_at.getTime() / 1000),
      decline_message: 'Your card was declined.',
    });
    expect(attempt.failure_message).toBe('Your card was declined.');

    const acmePro = paymentMethodsSchema.parse(await listCards(as('owner'), 'acme-pro'));
    const [visa, mastercard] = acmePro.data;
    expect(visa?.last_charge).toMatchObject({ status: 'succeeded', decline_message: null });
    expect(mastercard?.last_charge).toBeNull();

    // A payment cancelled before the card answered (a newer attempt) is not the card's answer.
    await db()
      .updateTable('charges')
      .set({ failure_message: 'Replaced by a newer payment attempt.' })
      .where('failure_message', '=', 'Your card was declined.')
      .where('created_at', '=', attempt.created_at)
      .execute();
    const after = paymentMethodsSchema.parse(await listCards(as('owner'), 'restricted-co'));
    const previous = after.data.find((method) => method.is_default)?.last_charge;
    expect(previous?.at ?? Infinity).toBeLessThan(Math.floor(attempt.created_at.getTime() / 1000));
  });

  it('adds 4242 through a setup intent, confirm and attach, and lists it once however often attached', async () => {
    const before = await listCards(as('owner'), 'acme-pro');
    const secret = await setupIntent(as('owner'), 'acme-pro');
    expect(secret).toMatch(/_secret_/);
    const confirmed = await confirmSetup(as('owner'), secret, CARDS.visa);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.status).toBe('succeeded');
    const setupId = confirmed.body.setup_intent_id;
    // A double-submitted confirmation answers the same.
    expect((await confirmSetup(as('owner'), secret, CARDS.visa)).body).toEqual(confirmed.body);

    const first = await attach(as('owner'), 'acme-pro', setupId);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ is_default: false, card: { last4: '4242' } });
    const again = await attach(as('admin'), 'acme-pro', setupId);
    expect(again.body).toEqual(first.body);
    // The provider's event again (a replay with a new id) records nothing more.
    const replay = await handlePaymentEvent(
      { db: db(), gateway: server().gateway, clock: { now: () => new Date() } },
      { id: 'evt_replay_setup', type: 'setup_intent.succeeded', providerSetupIntentId: setupId },
    );
    expect(replay).toBe('applied');

    const after = await listCards(as('owner'), 'acme-pro');
    expect(after.data).toHaveLength(before.data.length + 1);
    expect(after.data.at(-1)).toEqual(first.body);
    expect(after.defaultPaymentMethodId).toBe(before.defaultPaymentMethodId);
  });

  it('refuses 4000 0000 0000 0002 with "Your card was declined." and saves nothing', async () => {
    const before = await countCards('acme-pro');
    const secret = await setupIntent(as('owner'), 'acme-pro');
    const declined = await confirmSetup(as('owner'), secret, CARDS.declined);
    expect(declined.status).toBe(402);
    expect(declined.body).toEqual({ message: 'Your card was declined.' });
    const setupId = secret.split('_secret_')[0] ?? '';
    const attached = await attach(as('owner'), 'acme-pro', setupId);
    expect(attached.status).toBe(409);
    expect(await countCards('acme-pro')).toBe(before);
    // Insufficient funds is refused the same way.
    const poor = await confirmSetup(as('owner'), secret, CARDS.insufficient);
    expect(poor.status).toBe(402);
    expect(poor.body.message).toBe('Your card has insufficient funds.');
    expect(await countCards('acme-pro')).toBe(before);
  });

  it('asks 4000 0025 0000 3155 for 3-D Secure: a failed challenge saves nothing, a completed one saves it', async () => {
    const before = await countCards('acme-pro');
    const secret = await setupIntent(as('owner'), 'acme-pro');
    const asked = await confirmSetup(as('owner'), secret, CARDS.authenticate);
    expect(asked.status).toBe(200);
    if (asked.body.status !== 'requires_action') throw new Error('expected a challenge');
    const setupId = asked.body.setup_intent_id;
    // Not recorded while the challenge is open.
    expect((await attach(as('owner'), 'acme-pro', setupId)).status).toBe(409);

    const failed = await answerChallenge(as('owner'), asked.body.challenge.id, 'fail');
    expect(failed.status).toBe(402);
    expect(failed.body.message).toBe(AUTHENTICATION_FAILED_MESSAGE);
    // The challenge is settled: completing it now changes nothing.
    const late = await answerChallenge(as('owner'), asked.body.challenge.id, 'complete');
    expect(late.status).toBe(402);
    expect((await attach(as('owner'), 'acme-pro', setupId)).status).toBe(409);
    expect(await countCards('acme-pro')).toBe(before);

    const retry = await confirmSetup(as('owner'), secret, CARDS.authenticate);
    if (retry.body.status !== 'requires_action') throw new Error('expected a challenge');
    expect(retry.body.challenge.id).not.toBe(asked.body.challenge.id);
    const done = await answerChallenge(as('owner'), retry.body.challenge.id, 'complete');
    expect(done.body).toEqual({ status: 'succeeded', setup_intent_id: setupId });
    const attached = await attach(as('owner'), 'acme-pro', setupId);
    expect(attached.status).toBe(200);
    expect(attached.body.card.last4).toBe('3155');
    expect(await countCards('acme-pro')).toBe(before + 1);
  });

  it('checks the captcha: missing, made up, or used before', async () => {
    const url = '/platform/organizations/acme-pro/payments/setup-intent';
    const missing = await as('owner').post(url, {});
    expect(missing).toMatchObject({ status: 400, body: { message: 'Captcha not submitted' } });
    const madeUp = await as('owner').post(url, { hcaptchaToken: 'not-a-token' });
    expect(madeUp).toMatchObject({ status: 400, body: { message: CAPTCHA_FAILED_MESSAGE } });
    const token = await captchaToken(as('owner'));
    expect((await as('owner').post(url, { hcaptchaToken: token })).status).toBe(200);
    const reused = await as('owner').post(url, { hcaptchaToken: token });
    expect(reused).toMatchObject({ status: 400, body: { message: CAPTCHA_FAILED_MESSAGE } });
  });

  it('makes a card the default, and keeps every card to its organization', async () => {
    const list = await listCards(as('owner'), 'acme-pro');
    const mastercard = list.data.find((method) => method.card.last4 === '4444');
    const visa = list.data.find((method) => method.id === list.defaultPaymentMethodId);
    const made = await as('admin').request(
      'PUT',
      '/platform/organizations/acme-pro/payments/default',
      {
        payment_method_id: mastercard?.id,
      },
    );
    expect(made).toMatchObject({ status: 200, body: { defaultPaymentMethodId: mastercard?.id } });
    const after = await listCards(as('owner'), 'acme-pro');
    expect(after.defaultPaymentMethodId).toBe(mastercard?.id);
    expect(after.data.filter((method) => method.is_default)).toHaveLength(1);
    // And back, for the tests that follow.
    await as('owner').request('PUT', '/platform/organizations/acme-pro/payments/default', {
      payment_method_id: visa?.id,
    });

    // acme-team's card is not acme-pro's to touch: not found, nothing changes.
    const teamCard = (await listCards(as('owner'), 'acme-team')).data[0];
    const foreignDefault = await as('owner').request(
      'PUT',
      '/platform/organizations/acme-pro/payments/default',
      { payment_method_id: teamCard?.id },
    );
    expect(foreignDefault.status).toBe(404);
    const foreignDelete = await as('owner').request(
      'DELETE',
      '/platform/organizations/acme-pro/payments',
      {
        card_id: teamCard?.id,
      },
    );
    expect(foreignDelete.status).toBe(404);
    expect((await listCards(as('owner'), 'acme-team')).data[0]).toEqual(teamCard);

    // Nor is another organization's setup.
    const secret = await setupIntent(as('owner'), 'acme-team');
    const confirmed = await confirmSetup(as('owner'), secret, CARDS.visa);
    expect((await attach(as('owner'), 'acme-pro', confirmed.body.setup_intent_id)).status).toBe(
      404,
    );
  });

  it('refuses to delete the default card and deletes another', async () => {
    const list = await listCards(as('owner'), 'acme-pro');
    const refused = await as('owner').request(
      'DELETE',
      '/platform/organizations/acme-pro/payments',
      {
        card_id: list.defaultPaymentMethodId,
      },
    );
    expect(refused).toMatchObject({ status: 409, body: { message: DEFAULT_CARD_DELETE_MESSAGE } });
    const other = list.data.find((method) => !method.is_default && method.card.last4 === '4242');
    const deleted = await as('owner').request(
      'DELETE',
      '/platform/organizations/acme-pro/payments',
      {
        card_id: other?.id,
      },
    );
    expect(deleted).toMatchObject({ status: 200, body: { deleted: other?.id } });
    const again = await as('owner').request('DELETE', '/platform/organizations/acme-pro/payments', {
      card_id: other?.id,
    });
    expect(again.status).toBe(404);
    expect(
      (await listCards(as('owner'), 'acme-pro')).data.map((method) => method.id),
    ).not.toContain(other?.id);
  });

  it('lets a free plan delete its only card, the default', async () => {
    const id = await addCard(as('owner'), 'acme-free', CARDS.visa);
    const list = await listCards(as('owner'), 'acme-free');
    expect(list).toMatchObject({ defaultPaymentMethodId: id, data: [{ id, is_default: true }] });
    const deleted = await as('owner').request(
      'DELETE',
      '/platform/organizations/acme-free/payments',
      {
        card_id: id,
      },
    );
    expect(deleted).toMatchObject({ status: 200, body: { deleted: id } });
    expect((await listCards(as('owner'), 'acme-free')).data).toEqual([]);
  });

  it.each(['developer', 'readonly'])(
    'answers 403 to %s on every card write, and changes nothing',
    async (user) => {
      const before = await listCards(as('owner'), 'acme-pro');
      const base = '/platform/organizations/acme-pro/payments';
      const token = await captchaToken(as(user));
      const calls: [string, string, unknown][] = [
        ['POST', `${base}/setup-intent`, { hcaptchaToken: token }],
        ['POST', `${base}/attach`, { setup_intent_id: 'seti_sim_x' }],
        ['PUT', `${base}/default`, { payment_method_id: before.data[1]?.id }],
        ['DELETE', base, { card_id: before.data[1]?.id }],
      ];
      for (const [method, url, body] of calls) {
        const response = await as(user).request(method, url, body);
        expect(response.status, `${method} ${url}`).toBe(403);
      }
      expect(await listCards(as('owner'), 'acme-pro')).toEqual(before);
    },
  );

  it('needs a session for the captcha; the configuration, which carries no secret, is public', async () => {
    expect((await server().client().post('/platform/captcha')).status).toBe(401);
    // The page of an invoice's payment link has no session.
    expect((await server().client().get('/platform/payments/config')).status).toBe(200);
    const config = await as('readonly').get('/platform/payments/config');
    expect(config.body).toEqual({
      payment_provider: 'simulator',
      publishable_key: null,
      captcha: { provider: 'builtin', site_key: null },
    });
    // Without Stripe configured there is no webhook to call.
    const webhook = await server()
      .client()
      .request('POST', '/platform/webhooks/stripe', {}, {}, { csrf: false });
    expect(webhook.status).toBe(404);
  });

  it('lists every payment route in the OpenAPI document with its answers', async () => {
    const document = (
      await server().client().get<{
        paths: Record<
          string,
          Record<string, { tags?: string[]; summary?: string; responses: Record<string, unknown> }>
        >;
      }>('/platform/openapi.json')
    ).body;
    const expected: [string, string, string[]][] = [
      ['/platform/payments/config', 'get', ['200']],
      ['/platform/captcha', 'post', ['200', '401']],
      ['/platform/organizations/{slug}/payments', 'get', ['200', '401', '403', '404']],
      ['/platform/organizations/{slug}/payments', 'delete', ['200', '400', '403', '404', '409']],
      ['/platform/organizations/{slug}/payments/setup-intent', 'post', ['200', '400', '403']],
      ['/platform/organizations/{slug}/payments/attach', 'post', ['200', '404', '409']],
      ['/platform/organizations/{slug}/payments/default', 'put', ['200', '404']],
      [
        '/platform/organizations/{slug}/billing/credits/top-up',
        'post',
        ['200', '400', '402', '403'],
      ],
      ['/platform/simulator/setup-intents/confirm', 'post', ['200', '402']],
      ['/platform/simulator/payment-intents/confirm', 'post', ['200', '402']],
      ['/platform/simulator/challenges/{challengeId}', 'post', ['200', '402']],
      ['/platform/simulator/payment-methods', 'post', ['200', '400', '402']],
      [
        '/platform/organizations/{slug}/billing/invoices/{invoiceId}/pay',
        'post',
        ['200', '400', '402', '403', '404', '409'],
      ],
      ['/platform/webhooks/stripe', 'post', ['200', '400']],
    ];
    for (const [path, method, statuses] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation?.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
      expect(operation?.summary, `${method} ${path} summary`).toBeTruthy();
      for (const status of statuses) {
        expect(operation?.responses[status], `${method} ${path} ${status}`).toBeDefined();
      }
    }
  });
});
