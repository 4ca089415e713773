import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPendingCharge } from '../src/repositories/charges.ts';
import { newId } from '../src/lib/ids.ts';
import { fixedClock } from '../src/clock.ts';
import { reconcileStaleCharges } from '../src/services/charges/reconcile-charges.ts';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

describe.each(testDatabases())('settling charges whose event was lost (%s)', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server.close());

  const db = () => server.database.db;

  it('credits a top-up the provider says succeeded, once, and leaves a fresh charge alone', async () => {
    const org = await db()
      .selectFrom('organizations')
      .innerJoin('subscriptions', 'subscriptions.organization_id', 'organizations.id')
      .select(['organizations.id', 'subscriptions.customer_balance_cents'])
      .where('slug', '=', 'acme-team')
      .executeTakeFirstOrThrow();
    const card = await server.gateway.createCard({
      number: '4242424242424242',
      expMonth: 12,
      expYear: new Date().getUTCFullYear() + 2,
      cvc: '123',
    });
    const long = new Date(Date.now() - 60 * 60_000);
    const charge = await insertPendingCharge(db(), {
      id: newId('ch'),
      organizationId: org.id,
      invoiceId: null,
      purpose: 'top_up',
      amountCents: 20_000,
      paymentMethodId: null,
      providerPaymentMethodId: card.providerPaymentMethodId,
      idempotencyKey: 'lost-event-top-up',
      createdBy: null,
      profileUpdate: null,
      at: long,
      attemptedAt: long,
    });
    // The provider charged; our request died before it heard back, and no event came.
    const outcome = await server.gateway.charge({
      amountCents: 20_000,
      providerPaymentMethodId: card.providerPaymentMethodId,
      idempotencyKey: 'lost-event-top-up',
      description: 'Credit top-up',
      offSession: false,
    });
    expect(outcome.status).toBe('succeeded');
    await db()
      .updateTable('charges')
      .set({ provider_ref: outcome.providerRef, updated_at: long })
      .where('id', '=', charge?.id ?? '')
      .execute();

    const balance = async () =>
      (
        await db()
          .selectFrom('subscriptions')
          .select('customer_balance_cents')
          .where('organization_id', '=', org.id)
          .executeTakeFirstOrThrow()
      ).customer_balance_cents;

    const at = (time: Date) => ({ db: db(), gateway: server.gateway, clock: fixedClock(time) });
    // Too fresh to be stale: another request may still be on it.
    expect(await reconcileStaleCharges(at(new Date(long.getTime() + 60_000)))).toEqual([]);
    expect(await balance()).toBe(org.customer_balance_cents);

    expect(await reconcileStaleCharges(at(new Date()))).toEqual([charge?.id]);
    expect(await balance()).toBe(org.customer_balance_cents + 20_000);
    expect(await reconcileStaleCharges(at(new Date()))).toEqual([]);
    expect(await balance()).toBe(org.customer_balance_cents + 20_000);
  });
});
