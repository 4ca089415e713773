import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import {
  WEBHOOK_SIGNATURE_HEADER,
  emailOutboxListSchema,
  subscriptionSchema,
  webhookDeliveryListSchema,
  webhookEndpointListSchema,
  webhookEventBodySchema,
  webhookSecretSchema,
} from '@meterline/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { renderEmail } from '../src/services/notifications/render-email.tsx';
import { isForbiddenAddress, webhookUrlProblem } from '../src/services/webhooks/address-check.ts';
import {
  deliverDueWebhooks,
  postWebhook,
  RETRY_WINDOW_SECONDS,
} from '../src/services/webhooks/delivery-worker.ts';
import { enqueueWebhookEvent } from '../src/services/webhooks/enqueue-webhook.ts';
import { verifySignature } from '../src/services/webhooks/signature.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../src/services/webhook-endpoints/create-endpoint.ts';
import { addCard, CARDS } from './support/payments.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  useSignedInServer,
  type TestClient,
  type TestServer,
} from './support/server.ts';

// Signed webhooks, their endpoints, deliveries, retries and the events that feed them.

const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * 60_000;
const METERING_KEY = 'test-metering-key-0123456789';
const local = { production: false };

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on loopback that keeps what it receives and answers `status`. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200, reply: 'ok' };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(state.status, { 'content-type': 'text/plain' });
      response.end(state.reply);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDatabases())('webhooks (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let as: (user: string) => TestClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      // The tests run the delivery worker themselves.
      env: {
        METERING_API_KEY: METERING_KEY,
        WEBHOOK_INTERVAL_SECONDS: '0',
        EMAIL_OUTBOX_INTERVAL_SECONDS: '0',
      },
    });
    as = await signInEveryone(server);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const db = () => server.database.db;
  const base = (slug: string) => `/platform/organizations/${slug}/webhooks`;
  const deliver = () => deliverDueWebhooks(db(), local);
  const orgId = (slug: string) => server.organizationId(slug);

  async function create(slug: string, events: string[], url = receiver.url, user = 'owner') {
    const response = await as(user).post(base(slug), { url, events, description: 'Ledger' });
    expect(response.status).toBe(201);
    return webhookSecretSchema.parse(response.body);
  }

  async function deliveriesOf(slug: string, id: string) {
    const response = await as('owner').get(`${base(slug)}/${id}/deliveries`);
    expect(response.status).toBe(200);
    return webhookDeliveryListSchema.parse(response.body).deliveries;
  }

  describe('who may do what', () => {
    let endpointId: string;
    let deliveryId: string;
    beforeAll(async () => {
      endpointId = (await create('acme-team', ['invoice.paid'])).endpoint.id;
      const test = await as('owner').post(`${base('acme-team')}/${endpointId}/test`);
      deliveryId = (test.body as { id: string }).id;
    });

    const operations = () =>
      [
        ['GET', base('acme-team'), undefined],
        ['POST', base('acme-team'), { url: 'https://example.com/a', events: ['invoice.paid'] }],
        ['PATCH', `${base('acme-team')}/${endpointId}`, { description: 'Renamed' }],
        ['POST', `${base('acme-team')}/${endpointId}/test`, undefined],
        ['GET', `${base('acme-team')}/${endpointId}/deliveries`, undefined],
        ['POST', `${base('acme-team')}/${endpointId}/deliveries/${deliveryId}/resend`, undefined],
        ['POST', `${base('acme-team')}/${endpointId}/rotate-secret`, undefined],
      ] as const;

    it.each(['owner', 'admin'])('%s may use every operation', async (user) => {
      for (const [method, path, body] of operations()) {
        const response = await as(user).request(method, path, body);
        expect([200, 201, 202], `${method} ${path}`).toContain(response.status);
      }
    });

    it.each(['developer', 'readonly'])(
      '%s gets 403 on every operation (decision 014)',
      async (user) => {
        for (const [method, path, body] of [
          ...operations(),
          ['DELETE', `${base('acme-team')}/${endpointId}`, undefined] as const,
        ]) {
          const response = await as(user).request(method, path, body);
          expect(response.status, `${method} ${path}`).toBe(403);
          expect((response.body as { message: string }).message).toMatch(/webhooks$/);
        }
      },
    );

    it('answers 404 to an outsider and 401 without a session', async () => {
      for (const [method, path, body] of operations()) {
        expect((await as('outsider').request(method, path, body)).status).toBe(404);
        expect((await server.client().request(method, path, body)).status).toBe(401);
      }
    });

    it("an endpoint of another organization is a 404, even to its organization's owner", async () => {
      const own = await create('outsider-org', ['invoice.paid'], receiver.url, 'outsider');
      const path = `${base('acme-team')}/${own.endpoint.id}`;
      expect((await as('owner').request('PATCH', path, { enabled: false })).status).toBe(404);
      expect((await as('owner').get(`${path}/deliveries`)).status).toBe(404);
      expect((await as('owner').request('DELETE', path)).status).toBe(404);
      expect(
        (await as('outsider').request('DELETE', path.replace('acme-team', 'outsider-org'))).status,
      ).toBe(204);
    });

    it('owners delete with 204; the endpoint is gone', async () => {
      const made = await create('acme-team', ['credits.topped_up']);
      const path = `${base('acme-team')}/${made.endpoint.id}`;
      expect((await as('admin').request('DELETE', path)).status).toBe(204);
      expect((await as('admin').request('DELETE', path)).status).toBe(404);
    });
  });

  describe('validation', () => {
    it.each([
      [{ url: 'ftp://example.com', events: ['invoice.paid'] }, /^url must be an https:\/\//],
      [{ url: 'not a url', events: ['invoice.paid'] }, /^url must be an https:\/\//],
      [
        { url: `https://example.com/${'a'.repeat(2050)}`, events: ['invoice.paid'] },
        /^url must be at most 2048/,
      ],
      [{ url: 'https://u:p@example.com', events: ['invoice.paid'] }, /^url must not contain/],
      [{ url: 'https://example.com', events: [] }, /^events must name at least one/],
      [
        { url: 'https://example.com', events: ['invoice.sent'] },
        /^events may only hold invoice.finalized/,
      ],
      [
        { url: 'https://example.com', events: ['invoice.paid', 'invoice.paid'] },
        /^events must not repeat/,
      ],
      [{ events: ['invoice.paid'] }, /url/],
      [
        { url: 'https://example.com', events: ['invoice.paid'], description: 'a\u0000b' },
        /^description must not contain control/,
      ],
    ])('refuses %j with a 400 naming the field', async (body, message) => {
      const response = await as('owner').post(base('acme-pro'), body);
      expect(response.status).toBe(400);
      expect((response.body as { message: string }).message).toMatch(message);
    });

    it('refuses an empty change and a malformed id', async () => {
      const made = await create('acme-free', ['invoice.paid']);
      const empty = await as('owner').request(
        'PATCH',
        `${base('acme-free')}/${made.endpoint.id}`,
        {},
      );
      expect(empty.status).toBe(400);
      expect((empty.body as { message: string }).message).toMatch(/at least one of url/);
      expect((await as('owner').get(`${base('acme-free')}/nope/deliveries`)).status).toBe(400);
      expect((await as('owner').get(`${base('acme-free')}/we_missing/deliveries`)).status).toBe(
        404,
      );
    });
  });

  it(`holds at most ${MAX_WEBHOOK_ENDPOINTS} endpoints, also when created all at once`, async () => {
    const answers = await Promise.all(
      Array.from({ length: MAX_WEBHOOK_ENDPOINTS + 5 }, () =>
        as('owner').post(base('limits-co'), { url: receiver.url, events: ['invoice.paid'] }),
      ),
    );
    const stored = await db()
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', await orgId('limits-co'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(MAX_WEBHOOK_ENDPOINTS);
    expect(answers.filter((answer) => answer.status === 201).length).toBe(MAX_WEBHOOK_ENDPOINTS);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(refused.length).toBe(5);
    expect((refused[0]?.body as { message: string }).message).toBe(
      `An organization has at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints`,
    );
  });

  it('answers the secret once: at creation and at rotation, never in the list', async () => {
    const made = await create('acme-enterprise', ['invoice.paid', 'invoice.finalized']);
    expect(made.secret).toMatch(/^whsec_/);
    const listed = await as('owner').get(base('acme-enterprise'));
    expect(JSON.stringify(listed.body)).not.toContain(made.secret);
    const endpoint = webhookEndpointListSchema
      .parse(listed.body)
      .endpoints.find((e) => e.id === made.endpoint.id);
    expect(endpoint).toMatchObject({ url: receiver.url, enabled: true, last_delivery: null });
    const rotated = await as('admin').post(
      `${base('acme-enterprise')}/${made.endpoint.id}/rotate-secret`,
    );
    const next = webhookSecretSchema.parse(rotated.body).secret;
    expect(next).not.toBe(made.secret);
    // Signed with the new one from now on, and with the old one too for 24 hours (standard-webhooks.test).
    receiver.received.length = 0;
    await as('owner').post(`${base('acme-enterprise')}/${made.endpoint.id}/test`);
    await deliver();
    const got = receiver.received.find(
      (r) => JSON.parse(r.body).data.endpoint_id === made.endpoint.id,
    );
    expect(
      verifySignature(next, got?.headers['meterline-signature'] as string, got?.body ?? ''),
    ).toBe(true);
    expect(
      verifySignature(made.secret, got?.headers['meterline-signature'] as string, got?.body ?? ''),
    ).toBe(true);
  });

  it('a test event reaches a local receiver, signed; the attempt is logged; "Resend" sends it again', async () => {
    const made = await create('acme-free', ['invoice.paid']);
    const path = `${base('acme-free')}/${made.endpoint.id}`;
    receiver.received.length = 0;
    const queued = await as('owner').post(`${path}/test`);
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({
      event_type: 'webhook.test',
      status: 'pending',
      attempts: [],
    });
    expect(await deliver()).toMatchObject({ delivered: 1, failed: 0 });

    expect(receiver.received).toHaveLength(1);
    const [got] = receiver.received;
    const header = got?.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(verifySignature(made.secret, header, got?.body ?? '')).toBe(true);
    // One byte changed, or a stale timestamp: refused.
    expect(verifySignature(made.secret, header, `${got?.body} `)).toBe(false);
    expect(
      verifySignature(made.secret, header, got?.body ?? '', Math.floor(Date.now() / 1000) + 3600),
    ).toBe(false);
    const body = webhookEventBodySchema.parse(JSON.parse(got?.body ?? ''));
    expect(body).toMatchObject({ type: 'webhook.test', data: { object: 'test' } });

    const [delivery] = await deliveriesOf('acme-free', made.endpoint.id);
    expect(delivery).toMatchObject({
      status: 'succeeded',
      event_id: body.id,
      next_attempt_at: null,
    });
    expect(delivery?.attempts).toHaveLength(1);
    expect(delivery?.attempts[0]).toMatchObject({
      response_status: 200,
      response_excerpt: 'ok',
      error: null,
    });
    expect(delivery?.attempts[0]?.duration_ms).toBeGreaterThanOrEqual(0);

    const resent = await as('admin').post(`${path}/deliveries/${delivery?.id}/resend`);
    expect(resent.status).toBe(202);
    expect(resent.body).toMatchObject({ status: 'pending' });
    await deliver();
    expect(receiver.received).toHaveLength(2);
    // The same event: the receiver can tell a repeat by its id.
    expect(JSON.parse(receiver.received[1]?.body ?? '').id).toBe(body.id);
    expect((await deliveriesOf('acme-free', made.endpoint.id))[0]?.attempts).toHaveLength(2);
    const listed = webhookEndpointListSchema.parse((await as('owner').get(base('acme-free'))).body);
    expect(listed.endpoints.find((e) => e.id === made.endpoint.id)?.last_delivery).toMatchObject({
      status: 'succeeded',
      response_status: 200,
    });
  });

  it('a receiver answering 500 gets retries with a backoff; after 3 days the endpoint is disabled and its owners emailed', async () => {
    const failing = await startReceiver();
    try {
      failing.state.status = 500;
      failing.state.reply = 'x'.repeat(800);
      const made = await create('acme-team', ['invoice.paid'], failing.url);
      await as('owner').post(`${base('acme-team')}/${made.endpoint.id}/test`);
      expect(await deliver()).toMatchObject({ delivered: 0, failed: 1 });
      // Not due again yet: nothing is sent.
      expect(await deliver()).toMatchObject({ delivered: 0, failed: 0 });
      let [delivery] = await deliveriesOf('acme-team', made.endpoint.id);
      expect(delivery?.status).toBe('pending');
      expect(delivery?.attempts[0]).toMatchObject({
        response_status: 500,
        error: 'the endpoint answered HTTP 500',
      });
      expect(delivery?.attempts[0]?.response_excerpt).toHaveLength(500);
      const firstWait = (delivery?.next_attempt_at ?? 0) - (delivery?.attempts[0]?.at ?? 0);
      expect(firstWait).toBeGreaterThanOrEqual(59);

      // Due again: the second attempt, and a longer wait after it.
      const move = () =>
        db()
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: new Date(Date.now() - 1000) })
          .where('endpoint_id', '=', made.endpoint.id)
          .execute();
      await move();
      expect(await deliver()).toMatchObject({ failed: 1 });
      [delivery] = await deliveriesOf('acme-team', made.endpoint.id);
      expect(delivery?.attempts).toHaveLength(2);
      expect(
        (delivery?.next_attempt_at ?? 0) - (delivery?.attempts[0]?.at ?? 0),
      ).toBeGreaterThanOrEqual(119);
      expect(failing.received).toHaveLength(2);

      // Three days of failures: the delivery is given up, the endpoint disabled, the owners told once.
      const threeDaysAgo = new Date(Date.now() - RETRY_WINDOW_SECONDS * 1000 - 1000);
      await db()
        .updateTable('webhook_endpoints')
        .set({ failing_since: threeDaysAgo })
        .where('id', '=', made.endpoint.id)
        .execute();
      await db()
        .updateTable('webhook_deliveries')
        .set({ retry_since: threeDaysAgo })
        .where('endpoint_id', '=', made.endpoint.id)
        .execute();
      await move();
      expect(await deliver()).toMatchObject({ failed: 1, disabled: 1 });
      [delivery] = await deliveriesOf('acme-team', made.endpoint.id);
      expect(delivery?.status).toBe('failed');
      const listed = webhookEndpointListSchema.parse(
        (await as('owner').get(base('acme-team'))).body,
      );
      expect(listed.endpoints.find((e) => e.id === made.endpoint.id)).toMatchObject({
        enabled: false,
        disabled_reason: 'failing',
        last_delivery: { status: 'failed', response_status: 500 },
      });
      const mail = await fetch(`${server.url}/internal/emails?to=owner@example.com`, {
        headers: { authorization: `Bearer ${METERING_KEY}` },
      });
      const disabledMail = emailOutboxListSchema
        .parse(await mail.json())
        .emails.filter((email) => email.event === 'webhook.disabled');
      expect(disabledMail).toHaveLength(1);
      expect(disabledMail[0]?.subject).toBe('Webhook endpoint disabled for Acme Team');
      // The message renders, with the endpoint and a link to the webhooks page.
      const row = await db()
        .selectFrom('email_outbox')
        .select('payload')
        .where('id', '=', disabledMail[0]?.id ?? '')
        .executeTakeFirstOrThrow();
      const rendered = await renderEmail(row.payload, {
        baseUrl: 'https://billing.example.com',
        payLinkSecret: 'test',
      });
      expect(rendered.text).toContain(failing.url);
      expect(rendered.text).toContain('https://billing.example.com/org/acme-team/webhooks');
      expect(rendered.html).toContain('A webhook endpoint was disabled');
      expect(rendered.text).toContain('Every delivery to this endpoint of Acme Team has failed');

      // Disabled: nothing is sent to it, a test is refused until it is enabled again.
      await move();
      expect(await deliver()).toMatchObject({ delivered: 0, failed: 0 });
      const refused = await as('owner').post(`${base('acme-team')}/${made.endpoint.id}/test`);
      expect(refused.status).toBe(409);
      const enabled = await as('owner').request(
        'PATCH',
        `${base('acme-team')}/${made.endpoint.id}`,
        {
          enabled: true,
        },
      );
      expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
      failing.state.status = 204;
      await as('owner').post(
        `${base('acme-team')}/${made.endpoint.id}/deliveries/${delivery?.id}/resend`,
      );
      expect(await deliver()).toMatchObject({ delivered: 1 });
    } finally {
      await failing.close();
    }
  });

  it('the same event decided twice is delivered once', async () => {
    const made = await create('acme-enterprise', ['credits.topped_up']);
    const id = await orgId('acme-enterprise');
    const decide = () =>
      db()
        .transaction()
        .execute((trx) =>
          enqueueWebhookEvent(trx, id, 'credits.topped_up', { amount_cents: 1000 }, 'ch_twice'),
        );
    expect(await decide()).toMatch(/^evt_/);
    expect(await decide()).toBeNull();
    // An event of a type the endpoint does not listen to writes nothing for it.
    await db()
      .transaction()
      .execute((trx) => enqueueWebhookEvent(trx, id, 'restriction.updated', {}, 'r1'));
    receiver.received.length = 0;
    await deliver();
    const toUs = receiver.received.filter((r) => JSON.parse(r.body).type === 'credits.topped_up');
    expect(toUs).toHaveLength(1);
    expect(await deliveriesOf('acme-enterprise', made.endpoint.id)).toHaveLength(1);
  });

  it('a plan change applied delivers subscription.updated', async () => {
    const made = await create('acme-free', ['subscription.updated']);
    const card = await addCard(as('owner'), 'acme-free', CARDS.visa);
    const priced = await as('owner').post<{ proration_date: number; charge_today: number }>(
      '/platform/organizations/acme-free/billing/subscription/preview',
      { tier: 'tier_pro' },
      { Version: '2' },
    );
    expect(priced.status).toBe(200);
    const done = await as('owner').request(
      'PUT',
      '/platform/organizations/acme-free/billing/subscription',
      { tier: 'tier_pro', payment_method: card, proration_date: priced.body.proration_date },
      { 'Idempotency-Key': 'webhook-plan-change' },
    );
    expect(done.status).toBe(200);
    receiver.received.length = 0;
    await deliver();
    const bodies = receiver.received
      .filter((r) =>
        verifySignature(made.secret, r.headers['meterline-signature'] as string, r.body),
      )
      .map((r) => webhookEventBodySchema.parse(JSON.parse(r.body)));
    expect(bodies.map((b) => b.type)).toEqual(['subscription.updated']);
    expect(bodies[0]?.data).toMatchObject({
      object: 'subscription',
      change: 'plan',
      previous_plan: 'free',
      plan: 'pro',
      amount_charged_cents: priced.body.charge_today,
    });
  });

  it("closing acme-pro's cycle delivers invoice.finalized and invoice.paid, once", async () => {
    const made = await create('acme-pro', ['invoice.finalized', 'invoice.paid']);
    const subscription = subscriptionSchema.parse(
      (await as('owner').get('/platform/organizations/acme-pro/billing/subscription')).body,
    );
    const at = new Date(subscription.current_period_end * 1000 + GRACE);
    const deps = { db: db(), gateway: server.gateway, clock };
    const report = await runBillingJobs(deps, at, await orgId('acme-pro'));
    expect(report.closed).toHaveLength(1);
    await runBillingJobs(deps, at, await orgId('acme-pro'));
    receiver.received.length = 0;
    await deliver();
    const bodies = receiver.received
      .filter((r) =>
        verifySignature(made.secret, r.headers['meterline-signature'] as string, r.body),
      )
      .map((r) => webhookEventBodySchema.parse(JSON.parse(r.body)));
    expect(bodies.map((b) => b.type).sort()).toEqual(['invoice.finalized', 'invoice.paid']);
    const finalized = bodies.find((b) => b.type === 'invoice.finalized');
    expect(finalized?.data).toMatchObject({
      object: 'invoice',
      invoice_id: report.closed[0],
      status: 'open',
      currency: 'usd',
    });
    expect(typeof finalized?.data.amount_due_cents).toBe('number');
    expect(bodies.find((b) => b.type === 'invoice.paid')?.data).toMatchObject({
      invoice_id: report.closed[0],
      status: 'paid',
    });
  });

  it('payg-co with a $50 budget already exceeded: one signed spend_alert.triggered, for the highest threshold', async () => {
    const made = await create('payg-co', ['spend_alert.triggered']);
    receiver.received.length = 0;
    const set = await as('owner').request(
      'PUT',
      '/platform/organizations/payg-co/billing/spend-alert',
      {
        budget: 50,
        thresholds: [50, 75, 90, 100],
      },
    );
    expect(set.status).toBe(200);
    // Checked again (the job): nothing new is decided.
    await runBillingJobs(
      { db: db(), gateway: server.gateway, clock },
      clock.now(),
      await orgId('payg-co'),
    );
    await deliver();
    const bodies = receiver.received
      .filter((r) =>
        verifySignature(made.secret, r.headers['meterline-signature'] as string, r.body),
      )
      .map((r) => webhookEventBodySchema.parse(JSON.parse(r.body)));
    expect(bodies.every((b) => b.type === 'spend_alert.triggered')).toBe(true);
    expect(bodies.map((b) => b.data.alert)).toEqual([100]);
    expect(bodies[0]?.data).toMatchObject({ object: 'spend_alert', budget_usd: 50 });
  });
});

describe('production mode: no server-side request forgery', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    // IPv4 in the other IPv6 forms, and the special ranges an attacker's read found missing.
    '::127.0.0.1',
    '::10.0.0.1',
    '::0.0.1.0',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '64:ff9b:1::a00:1',
    '64:ff9b:1::808:808',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '192.88.99.1',
    '2001:10::1',
    '2001:20::1',
    '2001:db8::1',
    '198.18.0.1',
    '255.255.255.255',
    'not-an-address',
  ])('%s is refused', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '::8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('refuses at creation: http, a private literal, a name resolving to any private address', async () => {
    const resolveTo = (addresses: string[]) => async () => addresses;
    expect(await webhookUrlProblem('http://example.com/', true, resolveTo(['93.184.215.14']))).toBe(
      'url must be an https:// address',
    );
    expect(await webhookUrlProblem('https://[::1]/', true)).toMatch(/public address/);
    expect(await webhookUrlProblem('https://10.0.0.1/', true)).toMatch(/public address/);
    expect(
      await webhookUrlProblem(
        'https://mixed.test/',
        true,
        resolveTo(['93.184.215.14', '10.0.0.1']),
      ),
    ).toMatch(/public address/);
    expect(
      await webhookUrlProblem('https://hooks.test/', true, resolveTo(['93.184.215.14'])),
    ).toBeNull();
    // Outside production mode anything goes (the tests deliver to 127.0.0.1).
    expect(await webhookUrlProblem('http://127.0.0.1:9/', false)).toBeNull();
  });

  it('refuses at delivery: a name resolving to loopback (DNS rebinding) is never connected to', async () => {
    const receiver = await startReceiver();
    try {
      const port = new URL(receiver.url).port;
      const outcome = await postWebhook(`http://localhost:${port}/hooks`, 'whsec_x', '{}', {
        production: true,
      });
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatch(/refused/);
      const literal = await postWebhook(`https://127.0.0.1:${port}/`, 'whsec_x', '{}', {
        production: true,
      });
      expect(literal.error).toMatch(/refused: 127.0.0.1/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  describe('a server started with the production configuration', () => {
    // Started before the test (a start is slow on a busy machine), closed after it.
    const production = useSignedInServer({
      env: {
        NODE_ENV: 'production',
        PAYMENT_PROVIDER: 'simulator',
        CAPTCHA_PROVIDER: 'builtin',
        EMAIL_PROVIDER: 'outbox',
        PUBLIC_URL: 'https://billing.example.com',
        SEED_DEMO: 'always',
        COOKIE_SECURE: 'true',
        WEBHOOK_INTERVAL_SECONDS: '0',
      },
    });

    it('answers 400 for private addresses', async () => {
      const owner = production.as('owner');
      for (const url of [
        'https://127.0.0.1/hooks',
        'https://10.0.0.8/hooks',
        'https://169.254.169.254/latest',
        'https://[::1]/hooks',
        'https://[fd00::1]/hooks',
      ]) {
        const response = await owner.post(base2('acme-pro'), { url, events: ['invoice.paid'] });
        expect(response.status, url).toBe(400);
        expect((response.body as { message: string }).message).toMatch(/public address/);
      }
      const http = await owner.post(base2('acme-pro'), {
        url: 'http://93.184.215.14/hooks',
        events: ['invoice.paid'],
      });
      expect(http.body).toEqual({ message: 'url must be an https:// address' });
    });
  });
});

function base2(slug: string) {
  return `/platform/organizations/${slug}/webhooks`;
}
