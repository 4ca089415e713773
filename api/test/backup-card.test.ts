import { BACKUP_CARD_IS_DEFAULT_MESSAGE, subscriptionSchema } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { insertPaymentMethod } from '../src/repositories/payment-methods.ts';
import { collectInvoice } from '../src/services/invoices/collect-invoice.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { newId } from '../src/lib/ids.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { handlePaymentEvent } from '../src/services/charges/handle-payment-event.ts';
import { FaultyGateway } from './support/faulty-gateway.ts';
import {
  CARDS,
  addCard,
  addDecliningDefaultCard,
  dueInvoice as dueInvoiceAt,
  listCards,
  organizationIdOf,
} from './support/payments.ts';
import { testDatabases, useSignedInServer, type TestClient } from './support/server.ts';

const DAY = 86_400_000;
const MINUTE = 60_000;
const GRACE = DEFAULT_CLOSE_GRACE_MINUTES * MINUTE;
const NOT_FOUND = 'Payment method not found';

/**
 * Decision 016: an organization marks one card other than the default as its
 * backup; the billing engine charges it once, in the same attempt, when the default card declines an
 * invoice, and never on session or when the default card's outcome is not a decline.
 */
describe.each(testDatabases())('the backup card (%s)', (database) => {
  const clock = fixedClock(new Date());
  let faulty: FaultyGateway | undefined;
  const { server, as } = useSignedInServer({
    database,
    clock,
    env: { WEBHOOK_INTERVAL_SECONDS: '0', EMAIL_OUTBOX_INTERVAL_SECONDS: '0' },
    wrapGateway: (gateway) => (faulty = new FaultyGateway(gateway)),
  });
  const db = () => server().database.db;
  const port = () => {
    if (!faulty) throw new Error('no payment port');
    return faulty;
  };
  const deps = () => ({ db: db(), gateway: port(), clock });
  const owner = () => as('owner');
  const orgId = (slug: string) => organizationIdOf(db(), slug);
  const url = (slug: string) => `/platform/organizations/${slug}/payments/backup`;

  const setBackup = (client: TestClient, slug: string, body: unknown) =>
    client.request<{ backupPaymentMethodId?: string | null; message?: string }>(
      'PUT',
      url(slug),
      body,
    );
  const removeBackup = (client: TestClient, slug: string) =>
    client.request<{ backupPaymentMethodId?: string | null; message?: string }>(
      'DELETE',
      url(slug),
    );
  const cards = async (slug: string) => (await listCards(owner(), slug)).data;
  const cardEnding = async (slug: string, last4: string) => {
    const found = (await cards(slug)).find((method) => method.card.last4 === last4);
    if (!found) throw new Error(`${slug} has no card ending ${last4}`);
    return found;
  };
  const backups = async (slug: string) =>
    (await cards(slug)).filter((method) => method.is_backup).map((method) => method.card.last4);

  /** Adds a simulator card to an organization straight into the store, not its default. */
  async function addStoredCard(slug: string, number: string): Promise<string> {
    const card = await port().createCard({
      number,
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: '123',
    });
    const id = newId('pm');
    await insertPaymentMethod(db(), {
      id,
      organizationId: await orgId(slug),
      provider: port().provider,
      providerPaymentMethodId: card.providerPaymentMethodId,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      isDefault: false,
    });
    return id;
  }

  /** An organization's cycle closed by the billing job at its end: the new invoice and the report. */
  async function closeCycle(slug: string) {
    const subscription = subscriptionSchema.parse(
      (await owner().get(`/platform/organizations/${slug}/billing/subscription`)).body,
    );
    const closedAt = subscription.current_period_end * 1000 + GRACE;
    const report = await runBillingJobs(deps(), new Date(closedAt), await orgId(slug));
    expect(report.errors).toEqual([]);
    expect(report.closed).toHaveLength(1);
    return { invoiceId: report.closed[0] ?? '', closedAt, report };
  }

  /** An invoice's charges, oldest first, and what the provider took for it (net of refunds). */
  async function ledger(invoiceId: string) {
    const charges = await db()
      .selectFrom('charges')
      .select([
        'id',
        'idempotency_key',
        'status',
        'payment_method_id',
        'failure_message',
        'backup_of_charge_id',
      ])
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .orderBy('idempotency_key')
      .execute();
    const intents = await db()
      .selectFrom('simulator_payment_intents')
      .select(['status', 'amount_cents', 'refunded_cents'])
      .where('idempotency_key', 'like', `invoice:${invoiceId}:%`)
      .execute();
    const invoice = await db()
      .selectFrom('invoices')
      .select(['status', 'attempt_count', 'next_payment_attempt_at', 'amount_due_cents'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    const taken = intents
      .filter((intent) => intent.status === 'succeeded')
      .reduce(
        (sum, intent) => sum + Number(intent.amount_cents) - Number(intent.refunded_cents),
        0,
      );
    return { invoice, charges, taken };
  }

  async function emails(slug: string, event: string) {
    return db()
      .selectFrom('email_outbox')
      .innerJoin('organizations', 'organizations.id', 'email_outbox.organization_id')
      .select(['email_outbox.id', 'email_outbox.payload', 'email_outbox.event_key'])
      .where('organizations.slug', '=', slug)
      .where('email_outbox.event', '=', event)
      .execute();
  }

  async function webhookData(slug: string, type: string) {
    const rows = await db()
      .selectFrom('webhook_events')
      .innerJoin('organizations', 'organizations.id', 'webhook_events.organization_id')
      .select('webhook_events.data')
      .where('organizations.slug', '=', slug)
      .where('webhook_events.type', '=', type)
      .execute();
    return rows.map((row) => row.data as Record<string, unknown>);
  }

  async function listenToInvoices(slug: string) {
    const created = await owner().post(`/platform/organizations/${slug}/webhooks`, {
      url: 'https://hooks.example.com/meterline',
      events: ['invoice.paid', 'invoice.payment_failed'],
    });
    expect(created.status).toBe(201);
  }

  describe('marking and unmarking (PUT and DELETE /payments/backup)', () => {
    it('marks a card other than the default, answers is_backup in the list, and moves the mark', async () => {
      expect((await cards('acme-pro')).every((method) => method.is_backup === false)).toBe(true);
      const mastercard = await cardEnding('acme-pro', '4444');
      const marked = await setBackup(owner(), 'acme-pro', { payment_method_id: mastercard.id });
      expect(marked).toMatchObject({ status: 200, body: { backupPaymentMethodId: mastercard.id } });
      expect(await backups('acme-pro')).toEqual(['4444']);
      // Again: the same answer, still one backup.
      expect(
        (await setBackup(owner(), 'acme-pro', { payment_method_id: mastercard.id })).status,
      ).toBe(200);

      // Another card takes the mark over; one backup at a time.
      const third = await addCard(owner(), 'acme-pro', CARDS.visa);
      expect((await setBackup(as('admin'), 'acme-pro', { payment_method_id: third })).status).toBe(
        200,
      );
      const listed = await cards('acme-pro');
      expect(listed.filter((method) => method.is_backup).map((method) => method.id)).toEqual([
        third,
      ]);

      // Deleting the backup card clears the mark with it.
      const deleted = await owner().request('DELETE', '/platform/organizations/acme-pro/payments', {
        card_id: third,
      });
      expect(deleted.status).toBe(200);
      expect(await backups('acme-pro')).toEqual([]);
    });

    it('refuses the default card (409), and making the backup the default clears its mark', async () => {
      const visa = await cardEnding('acme-pro', '4242');
      expect(visa.is_default).toBe(true);
      const refused = await setBackup(owner(), 'acme-pro', { payment_method_id: visa.id });
      expect(refused).toMatchObject({
        status: 409,
        body: { message: BACKUP_CARD_IS_DEFAULT_MESSAGE },
      });
      expect(await backups('acme-pro')).toEqual([]);

      const mastercard = await cardEnding('acme-pro', '4444');
      expect(
        (await setBackup(owner(), 'acme-pro', { payment_method_id: mastercard.id })).status,
      ).toBe(200);
      const madeDefault = await owner().request(
        'PUT',
        '/platform/organizations/acme-pro/payments/default',
        { payment_method_id: mastercard.id },
      );
      expect(madeDefault.status).toBe(200);
      const after = await cardEnding('acme-pro', '4444');
      expect(after).toMatchObject({ is_default: true, is_backup: false });
      expect(await backups('acme-pro')).toEqual([]);
      // Back as the story had it.
      await owner().request('PUT', '/platform/organizations/acme-pro/payments/default', {
        payment_method_id: visa.id,
      });
    });

    it('unmarks with DELETE, also when there is no backup', async () => {
      const mastercard = await cardEnding('acme-pro', '4444');
      await setBackup(owner(), 'acme-pro', { payment_method_id: mastercard.id });
      for (let time = 0; time < 2; time++) {
        const removed = await removeBackup(owner(), 'acme-pro');
        expect(removed).toMatchObject({ status: 200, body: { backupPaymentMethodId: null } });
        expect(await backups('acme-pro')).toEqual([]);
      }
      expect(await cardEnding('acme-pro', '4444')).toBeTruthy();
    });

    it('validates the body (400 naming the field) and scopes the card to the organization (404), writing nothing', async () => {
      const cases: [unknown, number, string][] = [
        [{}, 400, 'Payment method id required'],
        [{ payment_method_id: '' }, 400, 'Payment method id required'],
        [{ payment_method_id: 'pm_bad id' }, 400, 'Payment method id is not valid'],
        [{ payment_method_id: `pm_${'a'.repeat(300)}` }, 400, 'at most 255'],
        [{ payment_method_id: 42 }, 400, 'Payment method id'],
        [{ payment_method_id: 'pm_unknown0' }, 404, NOT_FOUND],
      ];
      // acme-team's own card is not acme-pro's.
      const teamCard = (await cards('acme-team'))[0]?.id ?? '';
      cases.push([{ payment_method_id: teamCard }, 404, NOT_FOUND]);
      for (const [body, status, message] of cases) {
        const answer = await setBackup(owner(), 'acme-pro', body);
        expect(answer.status, JSON.stringify(body)).toBe(status);
        expect(answer.body.message).toContain(message);
      }
      expect(await backups('acme-pro')).toEqual([]);
      expect(await backups('acme-team')).toEqual([]);
    });

    it('needs billing write on payment methods: owners and administrators only', async () => {
      const mastercard = await cardEnding('acme-pro', '4444');
      const body = { payment_method_id: mastercard.id };
      for (const user of ['developer', 'readonly']) {
        expect((await setBackup(as(user), 'acme-pro', body)).status, user).toBe(403);
        expect((await removeBackup(as(user), 'acme-pro')).status, user).toBe(403);
      }
      expect((await setBackup(as('outsider'), 'acme-pro', body)).status).toBe(404);
      expect((await removeBackup(as('outsider'), 'acme-pro')).status).toBe(404);
      expect((await setBackup(server().client(), 'acme-pro', body)).status).toBe(401);
      expect((await removeBackup(server().client(), 'acme-pro')).status).toBe(401);
      expect(await backups('acme-pro')).toEqual([]);
      expect((await setBackup(as('admin'), 'acme-pro', body)).status).toBe(200);
      expect((await removeBackup(as('admin'), 'acme-pro')).status).toBe(200);
    });

    it('the database itself keeps one backup per organization, never the default', async () => {
      const organizationId = await orgId('acme-pro');
      // acme-pro has one card besides the default; with a second, marking both makes two backups.
      await addStoredCard('acme-pro', CARDS.visa);
      const twoBackups = db()
        .updateTable('payment_methods')
        .set({ is_backup: true })
        .where('organization_id', '=', organizationId)
        .where('is_default', '=', false)
        .execute();
      await expect(twoBackups).rejects.toThrow();
      const both = db()
        .updateTable('payment_methods')
        .set({ is_backup: true })
        .where('organization_id', '=', organizationId)
        .where('is_default', '=', true)
        .execute();
      await expect(both).rejects.toThrow();
      expect(await backups('acme-pro')).toEqual([]);
    });
  });

  describe("the engine's collection", () => {
    it('pays with the backup card when the default card declines, records the card, and tells so once', async () => {
      // acme-team's Visa 4242 stays on file; a declining card becomes the default, the Visa the backup.
      const organizationId = await orgId('acme-team');
      await addDecliningDefaultCard(server(), organizationId);
      const visa = await cardEnding('acme-team', '4242');
      expect(visa.is_default).toBe(false);
      expect((await setBackup(owner(), 'acme-team', { payment_method_id: visa.id })).status).toBe(
        200,
      );
      await listenToInvoices('acme-team');

      const { invoiceId, report, closedAt } = await closeCycle('acme-team');
      expect(report.paid).toEqual([invoiceId]);
      expect(report.failed).toEqual([]);
      const paid = await ledger(invoiceId);
      expect(paid.invoice.status).toBe('paid');
      expect(paid.taken).toBe(paid.invoice.amount_due_cents);
      const [first, second] = paid.charges;
      expect(paid.charges).toHaveLength(2);
      expect(first).toMatchObject({
        idempotency_key: `invoice:${invoiceId}:attempt:1`,
        status: 'failed',
        failure_message: 'Your card was declined.',
        backup_of_charge_id: null,
      });
      expect(first?.payment_method_id).not.toBe(visa.id);
      expect(second).toMatchObject({
        idempotency_key: `invoice:${invoiceId}:attempt:1:backup`,
        status: 'succeeded',
        payment_method_id: visa.id,
        backup_of_charge_id: first?.id,
      });

      // The invoice names the card that paid; so do its receipt and its webhook event, once each.
      const detail = await owner().get<{ paid_with: unknown; status: string }>(
        `/platform/organizations/acme-team/billing/invoices/${invoiceId}`,
      );
      expect(detail.body).toMatchObject({
        status: 'paid',
        paid_with: { brand: 'visa', last4: '4242' },
      });
      const receipts = (await emails('acme-team', 'payment.succeeded')).filter((email) =>
        email.event_key.endsWith(invoiceId),
      );
      expect(receipts.length).toBeGreaterThan(0);
      expect(receipts[0]?.payload).toMatchObject({
        card: 'Visa ending in 4242',
        paidWithBackup: true,
      });
      const shown = await (await fetch(`${server().url}/dev/mailbox/${receipts[0]?.id}`)).text();
      expect(shown).toContain('Visa ending in 4242');
      expect(shown).toContain('backup card');
      expect(await emails('acme-team', 'payment.failed')).toEqual([]);
      const events = await webhookData('acme-team', 'invoice.paid');
      expect(events.filter((data) => data.invoice_id === invoiceId)).toEqual([
        expect.objectContaining({ paid_with_backup_card: true, charge_id: second?.id }),
      ]);

      // Later runs, and the backup's provider event delivered late and twice, change nothing.
      const intent = await db()
        .selectFrom('charges')
        .select('provider_ref')
        .where('id', '=', second?.id ?? '')
        .executeTakeFirstOrThrow();
      for (let delivery = 0; delivery < 2; delivery++) {
        await handlePaymentEvent(deps(), {
          id: `evt_backup_${invoiceId}`,
          type: 'payment_intent.succeeded',
          providerRef: intent.provider_ref ?? '',
          chargeKey: second?.idempotency_key ?? null,
        });
      }
      await runBillingJobs(deps(), new Date(closedAt + 3 * DAY), organizationId);
      const after = await ledger(invoiceId);
      expect(after.charges).toHaveLength(2);
      expect(after.taken).toBe(after.invoice.amount_due_cents);
      expect(
        (await emails('acme-team', 'payment.succeeded')).filter((email) =>
          email.event_key.endsWith(invoiceId),
        ),
      ).toHaveLength(receipts.length);
    });

    it('without a backup card: the usual failure and retries on days 3, 5 and 7', async () => {
      const organizationId = await orgId('crowded-co');
      await addDecliningDefaultCard(server(), organizationId);
      expect(await backups('crowded-co')).toEqual([]);
      const { invoiceId, report, closedAt } = await closeCycle('crowded-co');
      expect(report.failed).toEqual([invoiceId]);
      const failed = await ledger(invoiceId);
      expect(failed.invoice).toMatchObject({ status: 'open', attempt_count: 1 });
      expect(failed.invoice.next_payment_attempt_at?.getTime()).toBe(closedAt + 3 * DAY);
      expect(failed.charges.map((charge) => charge.idempotency_key)).toEqual([
        `invoice:${invoiceId}:attempt:1`,
      ]);
      const retried = await runBillingJobs(deps(), new Date(closedAt + 3 * DAY), organizationId);
      expect(retried.failed).toEqual([invoiceId]);
      const again = await ledger(invoiceId);
      expect(again.invoice.attempt_count).toBe(2);
      expect(again.charges.every((charge) => charge.backup_of_charge_id === null)).toBe(true);
      expect(again.taken).toBe(0);
    });

    it('a backup that declines too: the usual failure, each card asked once per attempt, nothing taken', async () => {
      const organizationId = await orgId('payg-co');
      await addDecliningDefaultCard(server(), organizationId);
      const visa = await cardEnding('payg-co', '4242');
      const poor = await addStoredCard('payg-co', CARDS.insufficient);
      expect((await setBackup(owner(), 'payg-co', { payment_method_id: poor })).status).toBe(200);
      await listenToInvoices('payg-co');

      const { invoiceId, report, closedAt } = await closeCycle('payg-co');
      expect(report.failed).toEqual([invoiceId]);
      const failed = await ledger(invoiceId);
      expect(failed.invoice).toMatchObject({ status: 'open', attempt_count: 1 });
      expect(failed.invoice.next_payment_attempt_at?.getTime()).toBe(closedAt + 3 * DAY);
      expect(failed.charges.map((charge) => [charge.idempotency_key, charge.status])).toEqual([
        [`invoice:${invoiceId}:attempt:1`, 'failed'],
        [`invoice:${invoiceId}:attempt:1:backup`, 'failed'],
      ]);
      expect(failed.charges[1]?.payment_method_id).toBe(poor);
      expect(failed.charges.map((charge) => charge.payment_method_id)).not.toContain(visa.id);
      expect(failed.taken).toBe(0);

      // One "payment failed" per recipient for the attempt, naming both cards' answers.
      const mail = await emails('payg-co', 'payment.failed');
      expect(mail.length).toBeGreaterThan(0);
      expect(mail.every((email) => email.event_key === `payment.failed:${invoiceId}:1`)).toBe(true);
      expect(mail[0]?.payload).toMatchObject({
        reason: 'Your card was declined.',
        card: 'Visa ending in 0002',
        backup: { card: 'Visa ending in 9995' },
      });
      const shown = await (await fetch(`${server().url}/dev/mailbox/${mail[0]?.id}`)).text();
      expect(shown).toContain('We also tried the backup card');
      expect(shown).toMatch(/insufficient funds/i);
      expect(await webhookData('payg-co', 'invoice.payment_failed')).toEqual([
        expect.objectContaining({
          attempt_count: 1,
          failure_message: 'Your card was declined.',
          backup_card_failure_message: expect.stringMatching(/insufficient funds/i),
        }),
      ]);

      // The same run again tries nothing; the retry on day 3 asks each card once more.
      await runBillingJobs(deps(), new Date(closedAt + DAY), organizationId);
      expect((await ledger(invoiceId)).charges).toHaveLength(2);
      await runBillingJobs(deps(), new Date(closedAt + 3 * DAY), organizationId);
      const retried = await ledger(invoiceId);
      expect(retried.invoice.attempt_count).toBe(2);
      expect(retried.charges.map((charge) => charge.idempotency_key)).toEqual([
        `invoice:${invoiceId}:attempt:1`,
        `invoice:${invoiceId}:attempt:1:backup`,
        `invoice:${invoiceId}:attempt:2`,
        `invoice:${invoiceId}:attempt:2:backup`,
      ]);
      expect(retried.taken).toBe(0);
    });

    it('does not fall back while the default card’s outcome is unknown; once it is known as a decline, the backup pays, once', async () => {
      const organizationId = await orgId('oriole-co');
      await addDecliningDefaultCard(server(), organizationId);
      const visa = await cardEnding('oriole-co', '4242');
      expect((await setBackup(owner(), 'oriole-co', { payment_method_id: visa.id })).status).toBe(
        200,
      );
      const subscription = subscriptionSchema.parse(
        (await owner().get('/platform/organizations/oriole-co/billing/subscription')).body,
      );
      const closedAt = subscription.current_period_end * 1000 + GRACE;
      // The provider declines the default card, and its answer is lost on the way back.
      port().fail('charge', 'after', {
        matches: (request) =>
          !(request as { idempotencyKey: string }).idempotencyKey.endsWith(':backup'),
      });
      const lost = await runBillingJobs(deps(), new Date(closedAt), organizationId);
      expect(lost.closed).toHaveLength(1);
      const invoiceId = lost.closed[0] ?? '';
      expect(lost.errors.map((error) => error.id)).toEqual([invoiceId]);
      const unknown = await ledger(invoiceId);
      expect(unknown.charges.map((charge) => [charge.idempotency_key, charge.status])).toEqual([
        [`invoice:${invoiceId}:attempt:1`, 'pending'],
      ]);
      expect(unknown.invoice.attempt_count).toBe(0);

      // The next collection asks the provider where the default card's charge stands: declined. The same
      // attempt goes on to the backup card.
      const paid = await collectInvoice(deps(), invoiceId, {
        at: new Date(closedAt + MINUTE),
        trigger: 'automatic',
      });
      expect(paid).toEqual({ status: 'paid' });
      const after = await ledger(invoiceId);
      expect(after.charges.map((charge) => [charge.idempotency_key, charge.status])).toEqual([
        [`invoice:${invoiceId}:attempt:1`, 'failed'],
        [`invoice:${invoiceId}:attempt:1:backup`, 'succeeded'],
      ]);
      expect(after.taken).toBe(after.invoice.amount_due_cents);
    });

    it('a backup charge whose answer is lost is settled from the provider: paid once, never charged again', async () => {
      const organizationId = await orgId('idle-co');
      await addDecliningDefaultCard(server(), organizationId);
      const visa = await cardEnding('idle-co', '4242');
      expect((await setBackup(owner(), 'idle-co', { payment_method_id: visa.id })).status).toBe(
        200,
      );
      const subscription = subscriptionSchema.parse(
        (await owner().get('/platform/organizations/idle-co/billing/subscription')).body,
      );
      const closedAt = subscription.current_period_end * 1000 + GRACE;
      port().fail('charge', 'after', {
        matches: (request) =>
          (request as { idempotencyKey: string }).idempotencyKey.endsWith(':backup'),
      });
      const lost = await runBillingJobs(deps(), new Date(closedAt), organizationId);
      const invoiceId = lost.closed[0] ?? '';
      expect(lost.paid).toEqual([]);
      expect(lost.failed).toEqual([]);
      const pending = await ledger(invoiceId);
      expect(pending.charges.map((charge) => charge.status)).toEqual(['failed', 'pending']);
      expect(pending.taken).toBe(pending.invoice.amount_due_cents);
      // The attempt is not counted as failed while its backup charge is open.
      expect(pending.invoice.attempt_count).toBe(0);

      clock.advance(6 * 60);
      const run = await runBillingJobs(deps(), new Date(closedAt + 3 * DAY), organizationId);
      expect(run.errors).toEqual([]);
      const after = await ledger(invoiceId);
      expect(after.invoice.status).toBe('paid');
      expect(after.charges.map((charge) => charge.status)).toEqual(['failed', 'succeeded']);
      expect(after.taken).toBe(after.invoice.amount_due_cents);
    });
  });

  describe('on session', () => {
    it('Pay Now with the declining default card shows the decline and never falls back to the backup', async () => {
      const organizationId = await orgId('acme-pro');
      await addDecliningDefaultCard(server(), organizationId);
      const mastercard = await cardEnding('acme-pro', '4444');
      expect(
        (await setBackup(owner(), 'acme-pro', { payment_method_id: mastercard.id })).status,
      ).toBe(200);
      const invoiceId = await dueInvoiceAt(db(), 'acme-pro', 2, new Date());
      const declining = (await cards('acme-pro')).find((method) => method.is_default);
      const paid = await owner().post<{ message?: string }>(
        `/platform/organizations/acme-pro/billing/invoices/${invoiceId}/pay`,
        { payment_method_id: declining?.id },
        { 'idempotency-key': `backup-pay-now-${database}` },
      );
      expect(paid).toMatchObject({ status: 402, body: { message: 'Your card was declined.' } });
      const charges = await db()
        .selectFrom('charges')
        .select(['idempotency_key', 'status', 'payment_method_id'])
        .where('invoice_id', '=', invoiceId)
        .where('idempotency_key', 'like', '%:pay:%')
        .execute();
      expect(charges).toEqual([
        {
          idempotency_key: `invoice:${invoiceId}:pay:backup-pay-now-${database}`,
          status: 'failed',
          payment_method_id: declining?.id,
        },
      ]);
      // The engine's own on-session path (trigger pay_now) does not fall back either.
      const direct = await collectInvoice(deps(), invoiceId, {
        at: new Date(),
        trigger: 'pay_now',
        paymentMethodId: declining?.id,
        idempotencyKey: `backup-engine-pay-now-${database}`,
      });
      expect(direct).toMatchObject({ status: 'failed', message: 'Your card was declined.' });
      const all = await db()
        .selectFrom('charges')
        .select(['status', 'backup_of_charge_id'])
        .where('invoice_id', '=', invoiceId)
        .where('idempotency_key', 'like', '%:pay:%')
        .execute();
      expect(all).toEqual([
        { status: 'failed', backup_of_charge_id: null },
        { status: 'failed', backup_of_charge_id: null },
      ]);
      const invoice = await db()
        .selectFrom('invoices')
        .select('status')
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      expect(invoice.status).toBe('open');
    });
  });
});
