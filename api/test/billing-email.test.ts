import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { emailOutboxListSchema, subscriptionSchema } from '@meterline/domain';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { smtpTransport } from '../src/adapters/email-transport.ts';
import { deliverDueEmails } from '../src/services/notifications/outbox-worker.ts';
import { addDecliningDefaultCard, captchaToken, listCards } from './support/payments.ts';
import {
  startTestServer,
  testDatabases,
  type TestClient,
  type TestServer,
  organizationIdOf,
} from './support/server.ts';

// Billing mail through the outbox, to every billing recipient, once per event.

const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * 60_000;
const METERING_KEY = 'test-metering-key-0123456789';
const ACME_PRO_RECIPIENTS = 3;

interface Received {
  to: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
}

/** A real SMTP server on loopback that keeps what it receives, parsed. */
async function startSmtp(): Promise<{
  url: string;
  received: Received[];
  stop(): Promise<void>;
  start(): Promise<void>;
}> {
  const received: Received[] = [];
  let port = 0;
  let server: SMTPServer;
  const create = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((mail) => {
            for (const rcpt of session.envelope.rcptTo) {
              received.push({
                to: rcpt.address,
                subject: mail.subject ?? '',
                messageId: mail.messageId ?? '',
                text: mail.text ?? '',
                html: typeof mail.html === 'string' ? mail.html : '',
              });
            }
            callback();
          })
          .catch(callback);
      },
    });
  const start = async () => {
    server = create();
    server.listen(port, '127.0.0.1');
    await once(server.server, 'listening');
    port = (server.server.address() as AddressInfo).port;
  };
  await start();
  return {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    received,
    start,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testDatabases())('billing mail (%s)', (database) => {
  const clock = fixedClock(new Date());
  let server: TestServer;
  let owner: TestClient;

  beforeAll(async () => {
    server = await startTestServer({
      database,
      clock,
      // The test delivers the outbox itself, to its own SMTP server.
      env: { METERING_API_KEY: METERING_KEY, EMAIL_OUTBOX_INTERVAL_SECONDS: '0' },
    });
    owner = await server.signIn('owner@example.com');
  });
  afterAll(() => server.close());

  const db = () => server.database.db;
  const deps = () => ({ db: db(), gateway: server.gateway, clock });
  const orgId = (slug: string) => organizationIdOf(db(), slug);
  const outbox = async (query = '') => {
    const response = await fetch(`${server.url}/internal/emails${query}`, {
      headers: { authorization: `Bearer ${METERING_KEY}` },
    });
    expect(response.status).toBe(200);
    return emailOutboxListSchema.parse(await response.json()).emails;
  };
  const settings = {
    from: 'Meterline Billing <billing@meterline.test>',
    baseUrl: 'http://app.test',
  };

  it('closing acme-pro: "invoice finalized" and a receipt for each of its 3 recipients, once, delivered over SMTP', async () => {
    const smtp = await startSmtp();
    try {
      const subscription = subscriptionSchema.parse(
        (await owner.get('/platform/organizations/acme-pro/billing/subscription')).body,
      );
      const at = new Date(subscription.current_period_end * 1000 + GRACE);
      const report = await runBillingJobs(deps(), at, await orgId('acme-pro'));
      expect(report.closed).toHaveLength(1);
      expect(report.paid).toEqual(report.closed);

      const written = await outbox();
      const finalized = written.filter((email) => email.event === 'invoice.finalized');
      const receipts = written.filter((email) => email.event === 'payment.succeeded');
      expect(finalized).toHaveLength(ACME_PRO_RECIPIENTS);
      expect(receipts).toHaveLength(ACME_PRO_RECIPIENTS);
      expect(new Set(finalized.map((email) => email.to)).size).toBe(ACME_PRO_RECIPIENTS);
      expect(written.every((email) => email.delivered_at === null)).toBe(true);

      // The job again: nothing new is written.
      await runBillingJobs(deps(), at, await orgId('acme-pro'));
      expect(await outbox()).toHaveLength(written.length);

      // The mail server is down at the first attempt: nothing is lost, the attempt is recorded.
      await smtp.stop();
      const down = await deliverDueEmails(db(), smtpTransport(smtp.url), settings);
      expect(down).toEqual({ delivered: 0, failed: written.length });
      expect((await outbox()).every((email) => email.attempts === 1 && email.last_error)).toBe(
        true,
      );
      // A worker of a process that stopped mid-delivery left one row claimed: its lease runs out.
      await smtp.start();
      const [stuck] = written;
      await db()
        .updateTable('email_outbox')
        .set({ next_attempt_at: new Date(Date.now() - 1000) })
        .execute();
      await db()
        .updateTable('email_outbox')
        .set({ claimed_until: new Date(Date.now() + 60_000) })
        .where('id', '=', stuck?.id ?? '')
        .execute();
      const up = await deliverDueEmails(db(), smtpTransport(smtp.url), settings);
      expect(up).toEqual({ delivered: written.length - 1, failed: 0 });
      await db()
        .updateTable('email_outbox')
        .set({ claimed_until: new Date(Date.now() - 1000) })
        .where('id', '=', stuck?.id ?? '')
        .execute();
      expect(await deliverDueEmails(db(), smtpTransport(smtp.url), settings)).toEqual({
        delivered: 1,
        failed: 0,
      });
      // Every message arrived exactly once; another pass sends nothing.
      expect(await deliverDueEmails(db(), smtpTransport(smtp.url), settings)).toEqual({
        delivered: 0,
        failed: 0,
      });
      expect(smtp.received).toHaveLength(written.length);
      expect(new Set(smtp.received.map((mail) => mail.messageId)).size).toBe(written.length);
      expect((await outbox()).every((email) => email.delivered_at !== null)).toBe(true);

      const invoice = smtp.received.find((mail) => mail.subject.startsWith('Invoice '));
      expect(invoice?.subject).toMatch(/^Invoice \S+ for Acme Pro: \$\d+\.\d{2}$/);
      expect(invoice?.text).toContain('Amount due');
      expect(invoice?.html).toContain(
        `http://app.test/platform/organizations/acme-pro/billing/invoices/${report.closed[0]}/pdf`,
      );
      const receipt = smtp.received.find((mail) => mail.subject.startsWith('Receipt '));
      expect(receipt?.text).toContain('Visa ending in 4242');
    } finally {
      await smtp.stop().catch(() => undefined);
    }
  });

  it('a declined card: one "payment failed" per recipient and attempt, with why and what next', async () => {
    const id = await orgId('crowded-co');
    await addDecliningDefaultCard(server, id);
    const subscription = subscriptionSchema.parse(
      (await owner.get('/platform/organizations/crowded-co/billing/subscription')).body,
    );
    const at = new Date(subscription.current_period_end * 1000 + GRACE);
    const report = await runBillingJobs(deps(), at, id);
    expect(report.failed).toHaveLength(1);
    const failed = (await outbox()).filter(
      (email) => email.event === 'payment.failed' && email.organization_slug === 'crowded-co',
    );
    expect(failed.length).toBeGreaterThan(0);
    expect(
      failed.every((email) => /^Payment of \$\d+\.\d{2} failed for invoice /.test(email.subject)),
    ).toBe(true);
    await runBillingJobs(deps(), at, id);
    expect(
      (await outbox()).filter(
        (email) => email.event === 'payment.failed' && email.organization_slug === 'crowded-co',
      ),
    ).toHaveLength(failed.length);

    // The mailbox page shows the message, as HTML and as text.
    const page = await fetch(`${server.url}/dev/mailbox`);
    expect(page.status).toBe(200);
    const list = await page.text();
    expect(list).toContain(failed[0]?.subject.replace('$', '$'));
    // Times in the invoices' date format, never ISO ("2026-12-01T00:00:00").
    expect(list).not.toMatch(/\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/);
    expect(list).toMatch(/[A-Z][a-z]{2} \d{2}, \d{4}, \d{2}:\d{2} UTC/);
    const one = await fetch(`${server.url}/dev/mailbox/${failed[0]?.id}`);
    const shown = await one.text();
    expect(shown).toContain('Your card was declined.');
    expect(shown).toContain('We try the card again on');
    // It holds working pay links: another machine on the network gets nothing of it.
    for (const remoteAddress of ['10.0.0.5', '192.168.1.20', '2001:db8::1', '::ffff:10.0.0.5']) {
      for (const url of ['/dev/mailbox', `/dev/mailbox/${failed[0]?.id}`]) {
        const far = await server.app.inject({ method: 'GET', url, remoteAddress });
        expect(far.statusCode, `${remoteAddress} ${url}`).toBe(404);
        expect(far.body).not.toContain('declined');
      }
    }
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const near = await server.app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress });
      expect(near.statusCode, remoteAddress).toBe(200);
    }
  });

  it('a top-up, a card expiring this month and a grace period: one message each per recipient, once', async () => {
    const before = (await outbox()).length;
    // acme-pro tops up $150 with its default card.
    const card = (await listCards(owner, 'acme-pro')).defaultPaymentMethodId;
    const topUp = await owner.post(
      '/platform/organizations/acme-pro/billing/credits/top-up',
      { amount: 150, payment_method_id: card, hcaptcha_token: await captchaToken(owner) },
      { 'idempotency-key': `mail-top-up-${database}` },
    );
    expect(topUp.status).toBe(200);
    const toppedUp = (await outbox()).filter((email) => email.event === 'credits.topped_up');
    expect(toppedUp).toHaveLength(ACME_PRO_RECIPIENTS);
    expect(toppedUp[0]?.subject).toBe('$150.00 of credits added to Acme Pro');

    // The job tells acme-pro once that its Mastercard 4444 expires this month.
    await runBillingJobs(deps(), new Date(), await orgId('acme-pro'));
    await runBillingJobs(deps(), new Date(), await orgId('acme-pro'));
    const expiring = (await outbox()).filter((email) => email.event === 'card.expiring');
    expect(expiring).toHaveLength(ACME_PRO_RECIPIENTS);
    expect(expiring[0]?.subject).toBe(
      'The Mastercard ending in 4444 of Acme Pro expires this month',
    );

    // acme-free goes above its egress quota: its grace period starts, and its recipients hear it.
    const reported = await fetch(`${server.url}/internal/usage-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${METERING_KEY}` },
      body: JSON.stringify({
        events: [
          {
            id: `mail-egress-${database}`,
            project_ref: 'acmefree1',
            metric: 'EGRESS',
            usage: 50e9,
            timestamp: Math.floor(clock.now().getTime() / 1000) - 60,
          },
        ],
      }),
    });
    expect(reported.status).toBe(200);
    const grace = (await outbox()).filter(
      (email) => email.event === 'restriction.changed' && email.organization_slug === 'acme-free',
    );
    expect(grace.length).toBeGreaterThan(0);
    // The grace end as the spec shows it: DD MMM, YYYY.
    expect(grace[0]?.subject).toMatch(
      /^Acme Free is in a grace period until \d{2} [A-Z][a-z]{2}, \d{4}$/,
    );
    const shown = await (await fetch(`${server.url}/dev/mailbox/${grace[0]?.id}`)).text();
    expect(shown).toContain('because Egress went above the plan&#x27;s quota');
    expect((await outbox()).length).toBe(before + toppedUp.length + expiring.length + grace.length);
  });

  it('refuses a malformed query with the field named, and an anonymous caller', async () => {
    const bad = await fetch(`${server.url}/internal/emails?since=yesterday`, {
      headers: { authorization: `Bearer ${METERING_KEY}` },
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/since/);
    expect((await fetch(`${server.url}/internal/emails`)).status).toBe(401);
  });
});
