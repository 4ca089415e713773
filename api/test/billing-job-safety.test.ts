import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { insertPendingCharge } from '../src/repositories/charges.ts';
import { newId } from '../src/lib/ids.ts';
import { enforceOverduePayments } from '../src/services/restrictions/restrictions.ts';
import { HCaptcha } from '../src/adapters/captcha/hcaptcha.ts';
import { topUpCredits } from '../src/services/credits/top-up.ts';
import { settleChargeIn } from '../src/services/charges/settle-charge.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testDatabases())(
  'the billing job and a payment at the same moment (%s)',
  (database) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ database });
    });
    afterAll(() => server.close());
    const db = () => server.database.db;

    async function openInvoiceOf(slug: string) {
      return db()
        .selectFrom('invoices')
        .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
        .select([
          'invoices.id',
          'invoices.organization_id',
          'invoices.amount_due_cents',
          'invoices.finalized_at',
        ])
        .where('organizations.slug', '=', slug)
        .where('invoices.status', '=', 'open')
        .executeTakeFirstOrThrow();
    }

    it('never leaves an organization restricted that paid while the overdue check ran (item 7)', async () => {
      const invoice = await openInvoiceOf('acme-pro');
      // Fifteen days after it was finalized, the job looks for overdue invoices.
      const at = new Date(invoice.finalized_at.getTime() + 15 * DAY_MS);
      const card = await server.gateway.createCard({
        number: '4242424242424242',
        expMonth: 12,
        expYear: new Date().getUTCFullYear() + 2,
        cvc: '123',
      });
      const key = `invoice:${invoice.id}:pay:overdue-race`;
      const charge = await insertPendingCharge(db(), {
        id: newId('ch'),
        organizationId: invoice.organization_id,
        invoiceId: invoice.id,
        purpose: 'invoice',
        amountCents: invoice.amount_due_cents,
        paymentMethodId: null,
        providerPaymentMethodId: card.providerPaymentMethodId,
        idempotencyKey: key,
        createdBy: null,
        profileUpdate: null,
        at,
        attemptedAt: at,
      });
      const outcome = await server.gateway.charge({
        amountCents: invoice.amount_due_cents,
        providerPaymentMethodId: card.providerPaymentMethodId,
        idempotencyKey: key,
        description: 'Pay Now',
        offSession: false,
      });
      expect(outcome.status).toBe('succeeded');

      // The payment's settlement has marked the invoice paid and not committed yet when the check runs.
      let commit = () => {};
      const held = new Promise<void>((resolve) => (commit = resolve));
      const settling = db()
        .transaction()
        .execute(async (trx) => {
          await settleChargeIn(trx, charge?.id ?? '', outcome, at);
          await held;
        });
      await sleep(100);
      const enforcing = enforceOverduePayments(db(), at);
      await sleep(300);
      commit();
      await Promise.all([settling, enforcing]);

      const org = await db()
        .selectFrom('organizations')
        .select(['restriction_status', 'restriction_data'])
        .where('id', '=', invoice.organization_id)
        .executeTakeFirstOrThrow();
      expect(org).toEqual({ restriction_status: null, restriction_data: null });
      // An organization still overdue is restricted by the same check.
      expect(await enforceOverduePayments(db(), new Date())).not.toContain(invoice.organization_id);
    });

    it('asks the captcha of a top-up before any transaction is open (item 10)', async () => {
      const org = await db()
        .selectFrom('organizations')
        .innerJoin('payment_methods', 'payment_methods.organization_id', 'organizations.id')
        .select(['organizations.id', 'payment_methods.id as card'])
        .where('organizations.slug', '=', 'acme-team')
        .where('payment_methods.is_default', '=', true)
        .executeTakeFirstOrThrow();
      const owner = await db()
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'owner@example.com')
        .executeTakeFirstOrThrow();
      // While hCaptcha is being asked, nobody may hold a write on the charges: a transaction of the
      // top-up's own would. On the embedded database (one connection) a held transaction makes this wait.
      const seen: string[] = [];
      const captcha = new HCaptcha('site-key', 'secret', { warn: () => {} }, async () => {
        const probe = db()
          .transaction()
          .execute(async (trx) => {
            await sql`LOCK TABLE charges IN ACCESS EXCLUSIVE MODE NOWAIT`.execute(trx);
            return 'free';
          })
          .catch(() => 'held');
        seen.push(await Promise.race([probe, sleep(2_000).then(() => 'held')]));
        return new Response(JSON.stringify({ success: true }), { status: 200 });
      });
      const result = await topUpCredits(
        { db: db(), gateway: server.gateway, clock: fixedClock(new Date()), captcha },
        {
          organizationId: org.id,
          userId: owner.id,
          audit: { actor: { type: 'user', id: owner.id, email: null }, ip: null, user_agent: null },
          idempotencyKey: 'captcha-outside',
          body: { payment_method_id: org.card, amount: 100, hcaptcha_token: 'token' },
        },
      );
      expect(result.status).toBe('succeeded');
      expect(seen).toEqual(['free']);
    });
  },
);
