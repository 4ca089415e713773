import { describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { PROVIDER_UNAVAILABLE_MESSAGE } from '../src/plugins/errors.ts';
import { insertPendingCharge } from '../src/repositories/charges.ts';
import { collectInvoice } from '../src/services/invoices/collect-invoice.ts';
import { newId } from '../src/lib/ids.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { PAYMENT_IN_FLIGHT, voidInvoice } from '../src/services/invoices/void-invoice.ts';
import { handlePaymentEvent } from '../src/services/charges/handle-payment-event.ts';
import {
  ABANDONED_CHALLENGE,
  NEVER_REACHED_PROVIDER,
} from '../src/services/charges/open-charges.ts';
import {
  NOTHING_TO_PAY,
  PAYMENT_IN_PROGRESS,
  invoicePaymentKey,
} from '../src/services/invoices/pay-invoice.ts';
import { REFUND_INVOICE_VOID } from '../src/services/charges/settle-charge.ts';
import { FaultyGateway } from './support/faulty-gateway.ts';
import {
  CARDS,
  answerChallenge,
  balanceOf,
  captchaToken,
  confirmPayment,
  paymentMethod,
  dueInvoice as dueInvoiceAt,
  organizationIdOf,
  type PayAnswer,
} from './support/payments.ts';
import { testDatabases, useSignedInServer, type TestClient } from './support/server.ts';

const MINUTE = 60;

/**
 * Every charge settles exactly once, whichever answer comes first (the request,
 * a retry, the provider's event, the billing job), with the provider's answers lost or late at the
 * payment port's boundary; and every payment taken is recorded (paid, or refunded).
 */
describe.each(testDatabases())('charges settle exactly once (%s)', (database) => {
  const clock = fixedClock(new Date());
  let faulty: FaultyGateway | undefined;
  const { server, as } = useSignedInServer({
    database,
    clock,
    wrapGateway: (gateway) => (faulty = new FaultyGateway(gateway)),
  });
  const db = () => server().database.db;
  const port = () => {
    if (!faulty) throw new Error('no payment port');
    return faulty;
  };
  const deps = () => ({ db: db(), gateway: port(), clock });

  const orgId = (slug: string) => organizationIdOf(db(), slug);

  /**
   * A past invoice reopened as if its charge had failed, its automatic retry due now (its attempt count
   * past the history's, so the attempts of a test never reuse the keys of the story's).
   */
  async function dueInvoice(slug: string, skip: number, attempts = 10): Promise<string> {
    const id = await dueInvoiceAt(db(), slug, skip, clock.now(), attempts);
    // Its earlier payment failed after all: on our side and on the provider's.
    await db()
      .updateTable('charges')
      .set({ status: 'failed', failure_message: 'Your card was declined.' })
      .where('invoice_id', '=', id)
      .execute();
    await db()
      .updateTable('simulator_payment_intents')
      .set({ status: 'failed' })
      .where('idempotency_key', 'like', `invoice:${id}:%`)
      .execute();
    return id;
  }

  const automatic = (invoiceId: string) =>
    collectInvoice(deps(), invoiceId, { at: clock.now(), trigger: 'automatic' });

  function payNow(client: TestClient, slug: string, invoiceId: string, pm: string, key: string) {
    return client.post<PayAnswer>(
      `/platform/organizations/${slug}/billing/invoices/${invoiceId}/pay`,
      { payment_method_id: pm },
      { 'idempotency-key': key },
    );
  }

  /** Our charges of an invoice and the provider's intents for them, with what was refunded. */
  async function ledger(invoiceId: string) {
    const charges = await db()
      .selectFrom('charges')
      .select(['id', 'idempotency_key', 'status', 'failure_message', 'refund_status'])
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .execute();
    const intents = await db()
      .selectFrom('simulator_payment_intents')
      .select(['status', 'amount_cents', 'refunded_cents'])
      .where('idempotency_key', 'like', `invoice:${invoiceId}:%`)
      .execute();
    const invoice = await db()
      .selectFrom('invoices')
      .select(['status', 'attempt_count'])
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    const taken = intents
      .filter((intent) => intent.status === 'succeeded')
      .reduce(
        (sum, intent) => sum + Number(intent.amount_cents) - Number(intent.refunded_cents),
        0,
      );
    return { invoice, charges, intents, taken };
  }

  async function amountDue(invoiceId: string): Promise<number> {
    const row = await db()
      .selectFrom('invoices')
      .select('amount_due_cents')
      .where('id', '=', invoiceId)
      .executeTakeFirstOrThrow();
    return row.amount_due_cents;
  }

  it('finds an engine charge whose answer was lost by its key: a Pay Now 11 minutes later charges nothing twice', async () => {
    const invoiceId = await dueInvoice('acme-team', 0);
    port().fail('charge', 'after');
    await expect(automatic(invoiceId)).rejects.toThrow(/answer was lost/);
    const stuck = await ledger(invoiceId);
    expect(stuck.charges.at(-1)).toMatchObject({ status: 'pending' });
    expect(stuck.intents.filter((intent) => intent.status === 'succeeded')).toHaveLength(1);

    clock.advance(11 * MINUTE);
    const card = await paymentMethod(as('owner'), CARDS.visa);
    const paid = await payNow(as('owner'), 'acme-team', invoiceId, card, 'after-lost-answer');
    expect(paid).toMatchObject({ status: 409, body: { message: NOTHING_TO_PAY } });
    const after = await ledger(invoiceId);
    expect(after.invoice.status).toBe('paid');
    expect(after.charges.at(-1)).toMatchObject({ status: 'succeeded', refund_status: null });
    expect(after.taken).toBe(await amountDue(invoiceId));
  });

  it('holds Pay Now back while the engine is still calling, and lets it pay once a call that never reached the provider has lost its lease', async () => {
    const invoiceId = await dueInvoice('acme-team', 1);
    port().fail('charge', 'before');
    await expect(automatic(invoiceId)).rejects.toThrow(/before the provider/);
    const card = await paymentMethod(as('owner'), CARDS.visa);
    const early = await payNow(as('owner'), 'acme-team', invoiceId, card, 'while-in-flight');
    expect(early).toMatchObject({ status: 409, body: { message: PAYMENT_IN_PROGRESS } });

    clock.advance(6 * MINUTE);
    const paid = await payNow(as('owner'), 'acme-team', invoiceId, card, 'after-the-lease');
    expect(paid).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    const after = await ledger(invoiceId);
    expect(after.invoice.status).toBe('paid');
    const engine = after.charges.find((charge) => charge.idempotency_key.endsWith(':attempt:11'));
    expect(engine).toMatchObject({ status: 'failed', failure_message: NEVER_REACHED_PROVIDER });
    expect(after.taken).toBe(await amountDue(invoiceId));
  });

  it('reconciles lost answers of an invoice charge and of a top-up in the billing job, after their lease', async () => {
    const invoiceId = await dueInvoice('acme-team', 2);
    port().fail('charge', 'after');
    await expect(automatic(invoiceId)).rejects.toThrow();
    // No retry is due: only reconciliation may settle it.
    await db()
      .updateTable('invoices')
      .set({ next_payment_attempt_at: null })
      .where('id', '=', invoiceId)
      .execute();

    const before = await balanceOf(as('owner'), 'acme-pro');
    port().fail('charge', 'after');
    const topUp = await as('owner').post(
      '/platform/organizations/acme-pro/billing/credits/top-up',
      {
        payment_method_id: (
          await as('owner').get<{ defaultPaymentMethodId: string }>(
            '/platform/organizations/acme-pro/payments',
            { version: '2' },
          )
        ).body.defaultPaymentMethodId,
        amount: 100,
        hcaptcha_token: await captchaToken(as('owner')),
      },
      { 'idempotency-key': 'top-up-lost-answer' },
    );
    // Unknown outcome: a 503 the web app retries under the same key, never a 500.
    expect(topUp).toMatchObject({ status: 503, body: { message: PROVIDER_UNAVAILABLE_MESSAGE } });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before);

    // Within the callers' lease nobody takes the charges over.
    const soon = await runBillingJobs(deps(), clock.now());
    expect(soon.reconciled).toEqual([]);
    clock.advance(6 * MINUTE);
    const run = await runBillingJobs(deps(), clock.now());
    expect(run.errors).toEqual([]);
    expect(run.reconciled).toHaveLength(2);
    expect((await ledger(invoiceId)).invoice.status).toBe('paid');
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 10_000);
    expect((await runBillingJobs(deps(), clock.now())).reconciled).toEqual([]);
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 10_000);
  });

  it('lets an abandoned 3-D Secure Pay Now block the automatic retry for an hour only', async () => {
    const invoiceId = await dueInvoice('acme-pro', 1);
    const card = await paymentMethod(as('owner'), CARDS.authenticate);
    const started = await payNow(as('owner'), 'acme-pro', invoiceId, card, 'abandoned-3ds');
    expect(started.body.status).toBe('requires_action');
    expect(await automatic(invoiceId)).toEqual({
      status: 'skipped',
      reason: 'payment_in_progress',
    });

    clock.advance(61 * MINUTE);
    const run = await runBillingJobs(deps(), clock.now(), await orgId('acme-pro'));
    expect(run.errors).toEqual([]);
    expect(run.paid).toContain(invoiceId);
    const after = await ledger(invoiceId);
    expect(
      after.charges.find((charge) => charge.idempotency_key.includes('abandoned-3ds')),
    ).toMatchObject({ status: 'failed', failure_message: ABANDONED_CHALLENGE });
    expect(after.taken).toBe(await amountDue(invoiceId));
    // The challenge can no longer take money.
    const confirmed = await confirmPayment(as('owner'), started.body.payment_intent_secret ?? '');
    expect(confirmed.status).not.toBe(200);
  });

  it('cancels a payment waiting for 3-D Secure when the invoice is forgiven: completing it later takes nothing', async () => {
    const invoiceId = await dueInvoice('acme-pro', 2);
    const card = await paymentMethod(as('owner'), CARDS.authenticate);
    const started = await payNow(as('owner'), 'acme-pro', invoiceId, card, 'forgiven-3ds');
    expect(started.body.status).toBe('requires_action');
    const confirmed = await confirmPayment(as('owner'), started.body.payment_intent_secret ?? '');
    expect(confirmed.body.status).toBe('requires_action');

    expect(await voidInvoice(deps(), invoiceId, clock.now())).toEqual({ status: 'voided' });
    const answered = await answerChallenge(
      as('owner'),
      confirmed.body.challenge?.id ?? '',
      'complete',
    );
    expect(answered.status).not.toBe(200);
    const after = await ledger(invoiceId);
    expect(after.invoice.status).toBe('void');
    expect(after.taken).toBe(0);
    expect(after.charges.every((charge) => charge.status === 'failed')).toBe(true);
  });

  it('refunds, and records, a payment that succeeds after its invoice was forgiven', async () => {
    const invoiceId = await dueInvoice('acme-pro', 3);
    const organizationId = await orgId('acme-pro');
    const visa = await db()
      .selectFrom('payment_methods')
      .select(['id', 'provider_payment_method_id'])
      .where('organization_id', '=', organizationId)
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    // The engine wrote its charge ten minutes ago; the provider has no record of it under its key, so
    // forgiving fails it as a call that never got there.
    const key = `invoice:${invoiceId}:attempt:12`;
    const amount = await amountDue(invoiceId);
    const tenMinutesAgo = new Date(clock.now().getTime() - 10 * MINUTE * 1000);
    const charge = await insertPendingCharge(db(), {
      id: newId('ch'),
      organizationId,
      invoiceId,
      purpose: 'invoice',
      amountCents: amount,
      paymentMethodId: visa.id,
      providerPaymentMethodId: visa.provider_payment_method_id,
      idempotencyKey: key,
      createdBy: null,
      profileUpdate: null,
      at: tenMinutesAgo,
      attemptedAt: tenMinutesAgo,
    });
    expect(await voidInvoice(deps(), invoiceId, clock.now())).toEqual({ status: 'voided' });

    // A provider that charges it after all (a stale retry of the old one-step call, out of our hands);
    // its answer is lost, and its event arrives twice.
    const outcome = await port().charge({
      amountCents: amount,
      providerPaymentMethodId: visa.provider_payment_method_id,
      idempotencyKey: key,
      description: 'late',
      offSession: true,
    });
    expect(outcome.status).toBe('succeeded');
    for (let delivery = 0; delivery < 2; delivery++) {
      await handlePaymentEvent(deps(), {
        id: `evt_late_${invoiceId}`,
        type: 'payment_intent.succeeded',
        providerRef: outcome.providerRef ?? '',
        chargeKey: key,
      });
    }
    const after = await ledger(invoiceId);
    expect(after.invoice.status).toBe('void');
    expect(after.charges.find((row) => row.id === charge?.id)).toMatchObject({
      status: 'succeeded',
      refund_status: 'succeeded',
    });
    expect(after.intents.find((intent) => intent.status === 'succeeded')).toMatchObject({
      amount_cents: amount,
      refunded_cents: amount,
    });
    expect(after.taken).toBe(0);
    const refund = await db()
      .selectFrom('charges')
      .select(['refund_reason', 'refund_ref', 'refunded_at'])
      .where('id', '=', charge?.id ?? '')
      .executeTakeFirstOrThrow();
    expect(refund.refund_reason).toBe(REFUND_INVOICE_VOID);
    expect(refund.refund_ref).toBeTruthy();
  });

  it('refunds through the billing job when the provider failed at the first refund, once', async () => {
    const invoiceId = await dueInvoice('acme-pro', 4);
    const card = await paymentMethod(as('owner'), CARDS.visa);
    // Two attempts race past each other: the first pays, the second's success comes after.
    const first = await payNow(as('owner'), 'acme-pro', invoiceId, card, 'race-1');
    expect(first.body.status).toBe('succeeded');
    const amount = await amountDue(invoiceId);
    const organizationId = await orgId('acme-pro');
    const key = invoicePaymentKey(invoiceId, 'race-2');
    const second = await insertPendingCharge(db(), {
      id: newId('ch'),
      organizationId,
      invoiceId,
      purpose: 'invoice',
      amountCents: amount,
      paymentMethodId: null,
      providerPaymentMethodId: card,
      idempotencyKey: key,
      createdBy: null,
      profileUpdate: null,
      at: clock.now(),
      attemptedAt: clock.now(),
    });
    const outcome = await port().charge({
      amountCents: amount,
      providerPaymentMethodId: card,
      idempotencyKey: key,
      description: 'late twin',
      offSession: false,
    });
    port().fail('refund', 'before');
    await handlePaymentEvent(deps(), {
      id: `evt_twin_${invoiceId}`,
      type: 'payment_intent.succeeded',
      providerRef: outcome.providerRef ?? '',
      chargeKey: key,
    });
    const owed = await ledger(invoiceId);
    expect(owed.charges.find((row) => row.id === second?.id)?.refund_status).toBe('pending');
    expect(owed.taken).toBe(2 * amount);

    const run = await runBillingJobs(deps(), clock.now(), organizationId);
    expect(run.refunded).toEqual([second?.id]);
    expect((await runBillingJobs(deps(), clock.now(), organizationId)).refunded).toEqual([]);
    const after = await ledger(invoiceId);
    expect(after.invoice.status).toBe('paid');
    expect(after.taken).toBe(amount);
  });

  it('holds forgiving back while a payment of the invoice is under way at the provider', async () => {
    const invoiceId = await dueInvoice('acme-pro', 8);
    const card = await paymentMethod(as('owner'), CARDS.visa);
    // Pay Now's call is on its way: its charge row is written, the provider has not answered yet.
    port().fail('charge', 'before');
    const lost = await payNow(as('owner'), 'acme-pro', invoiceId, card, 'under-way');
    expect(lost).toMatchObject({ status: 503, body: { message: PROVIDER_UNAVAILABLE_MESSAGE } });
    expect(await voidInvoice(deps(), invoiceId, clock.now())).toEqual({
      status: 'refused',
      reason: PAYMENT_IN_FLIGHT,
    });
    clock.advance(6 * MINUTE);
    expect(await voidInvoice(deps(), invoiceId, clock.now())).toEqual({ status: 'voided' });
    expect((await ledger(invoiceId)).taken).toBe(0);
  });

  it('returns the credit a forgiven invoice used to the balance', async () => {
    const invoiceId = await dueInvoice('acme-pro', 5);
    await db()
      .updateTable('invoices')
      // It used 12.34 of credit: the subtotal was that much more than the amount due.
      .set((eb) => ({
        credit_applied_cents: 1_234,
        subtotal_cents: eb('amount_due_cents', '+', 1_234),
      }))
      .where('id', '=', invoiceId)
      .execute();
    const before = await balanceOf(as('owner'), 'acme-pro');
    expect(await voidInvoice(deps(), invoiceId, clock.now())).toEqual({ status: 'voided' });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 1_234);
    expect(await voidInvoice(deps(), invoiceId, clock.now())).toMatchObject({
      status: 'refused',
    });
    expect(await balanceOf(as('owner'), 'acme-pro')).toBe(before + 1_234);
  });

  it('in any order of Pay Now, the engine with a lost answer, a late event and the job: one payment kept, every payment recorded', async () => {
    type Step = 'engine' | 'payNow' | 'event' | 'job';
    const orders: Step[][][] = [
      [['engine'], ['payNow'], ['event'], ['job']],
      [['engine'], ['event'], ['payNow'], ['job']],
      [['engine'], ['job'], ['payNow'], ['event']],
      [['payNow'], ['engine'], ['event'], ['job']],
      [['job'], ['engine'], ['payNow'], ['event']],
      [['engine', 'payNow'], ['event'], ['job']],
      [['payNow', 'engine'], ['job'], ['event']],
      [['engine'], ['payNow', 'event'], ['job']],
      [['engine'], ['job', 'payNow'], ['event']],
      [['engine', 'payNow', 'event', 'job']],
    ];
    const organizationId = await orgId('acme-pro');
    const card = await paymentMethod(as('owner'), CARDS.visa);
    for (const [index, order] of orders.entries()) {
      const label = order.map((group) => group.join('+')).join(' → ');
      const invoiceId = await dueInvoice('acme-pro', 7, 100 * (index + 1));
      const amount = await amountDue(invoiceId);
      const engineKey = `invoice:${invoiceId}:attempt:${100 * (index + 1) + 1}`;
      const run: Record<Step, () => Promise<unknown>> = {
        engine: async () => {
          port().fail('charge', 'after', {
            matches: (request) =>
              (request as { idempotencyKey: string }).idempotencyKey === engineKey,
          });
          await automatic(invoiceId).catch(() => undefined);
        },
        payNow: () => payNow(as('owner'), 'acme-pro', invoiceId, card, `any-order-${index}`),
        event: async () => {
          const intent = await port().findPaymentIntentByKey(engineKey);
          if (intent?.status !== 'succeeded') return;
          await handlePaymentEvent(deps(), {
            id: `evt_any_order_${index}`,
            type: 'payment_intent.succeeded',
            providerRef: intent.providerRef,
            chargeKey: engineKey,
          });
        },
        job: async () => {
          clock.advance(6 * MINUTE);
          await runBillingJobs(deps(), clock.now(), organizationId);
        },
      };
      for (const group of order) await Promise.all(group.map((step) => run[step]()));
      port().clear();
      // Whatever is left settles with the next runs of the job.
      await run.job();
      await run.job();

      const after = await ledger(invoiceId);
      expect(after.invoice.status, `${label}: ${JSON.stringify(after)}`).toBe('paid');
      expect(after.taken, label).toBe(amount);
      const kept = after.charges.filter(
        (charge) => charge.status === 'succeeded' && charge.refund_status === null,
      );
      expect(kept, label).toHaveLength(1);
      // Every payment the provider took is one of our charges: kept, or refunded and marked so.
      const intents = await db()
        .selectFrom('simulator_payment_intents')
        .select(['idempotency_key', 'amount_cents', 'refunded_cents'])
        .where('idempotency_key', 'like', `invoice:${invoiceId}:%`)
        .where('status', '=', 'succeeded')
        .execute();
      for (const intent of intents) {
        const charge = after.charges.find((row) => row.idempotency_key === intent.idempotency_key);
        expect(charge?.status, label).toBe('succeeded');
        expect(Number(intent.refunded_cents) > 0, label).toBe(
          charge?.refund_status === 'succeeded',
        );
      }
    }
  });

  it('goes on with every other organization when one item fails, records why, and backs off', async () => {
    const failing = await dueInvoice('acme-pro', 6);
    // acme-team's newest invoice again, under attempt keys the test above did not use.
    const healthy = await dueInvoice('acme-team', 0, 20);
    // The failing one comes first in the run.
    await db()
      .updateTable('invoices')
      .set({ next_payment_attempt_at: new Date(clock.now().getTime() - 60_000) })
      .where('id', '=', failing)
      .execute();
    const proCard = await db()
      .selectFrom('payment_methods')
      .select('provider_payment_method_id')
      .where('organization_id', '=', await orgId('acme-pro'))
      .where('is_default', '=', true)
      .executeTakeFirstOrThrow();
    port().fail('charge', 'before', {
      times: 100,
      matches: (request) =>
        (request as { providerPaymentMethodId: string }).providerPaymentMethodId ===
        proCard.provider_payment_method_id,
    });
    const first = await runBillingJobs(deps(), clock.now());
    expect(first.paid).toContain(healthy);
    expect(first.errors).toContainEqual({
      kind: 'collect',
      id: failing,
      message: expect.stringContaining('before the provider'),
    });
    expect(first.errors.map((error) => error.id)).not.toContain(healthy);
    const recorded = await db()
      .selectFrom('billing_job_failures')
      .selectAll()
      .where('item_id', '=', failing)
      .executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ kind: 'collect', failures: 1 });

    // Backing off: the next run leaves it alone for a minute, then tries again.
    const backingOff = await runBillingJobs(deps(), clock.now());
    expect(backingOff.errors.map((error) => error.id)).not.toContain(failing);
    expect(backingOff.deferred).toBeGreaterThanOrEqual(1);
    port().clear();
    clock.advance(6 * MINUTE);
    const recovered = await runBillingJobs(deps(), clock.now());
    expect(recovered.paid).toContain(failing);
    const left = await db()
      .selectFrom('billing_job_failures')
      .select('item_id')
      .where('item_id', '=', failing)
      .execute();
    expect(left).toEqual([]);
  });
});
