import { describe, expect, it } from 'vitest';
import { PaymentSimulator } from '../src/adapters/simulator/simulator.ts';
import { invoicePaymentState, listCards } from './support/payments.ts';
import { testDatabases, useSignedInServer } from './support/server.ts';

describe.each(testDatabases())('a card removed from its organization (%s)', (database) => {
  const { server, as } = useSignedInServer({ database });
  const db = () => server().database.db;

  it('can no longer be charged, not even by naming its provider id on Pay Now, nor attached again', async () => {
    const cards = await listCards(as('owner'), 'acme-pro');
    const mastercard = cards.data.find((method) => method.card.last4 === '4444');
    if (!mastercard) throw new Error("acme-pro's Mastercard is missing from the demo world");
    const { provider_payment_method_id: providerId } = await db()
      .selectFrom('payment_methods')
      .select('provider_payment_method_id')
      .where('id', '=', mastercard.id)
      .executeTakeFirstOrThrow();

    const removed = await as('owner').request(
      'DELETE',
      '/platform/organizations/acme-pro/payments',
      {
        card_id: mastercard.id,
      },
    );
    expect(removed).toMatchObject({ status: 200, body: { deleted: mastercard.id } });

    const invoices = await as('owner').get<{ id: string; status: string }[]>(
      '/platform/organizations/acme-pro/billing/invoices?limit=5',
    );
    const open = invoices.body.find((invoice) => invoice.status === 'open');
    if (!open) throw new Error('acme-pro has no open invoice');
    const paid = await as('owner').post(
      `/platform/organizations/acme-pro/billing/invoices/${open.id}/pay`,
      { payment_method_id: providerId },
      { 'idempotency-key': 'with-the-removed-card' },
    );
    expect(paid).toMatchObject({ status: 404, body: { message: 'Payment method not found' } });
    expect(await invoicePaymentState(db(), open.id)).toMatchObject({
      status: 'open',
      charges: 0,
      succeeded: 0,
    });

    // The provider refuses it too, whoever asks: a charge fails, and it cannot be attached again.
    const organization = { id: await server().organizationId('acme-pro') };
    const { gateway } = server();
    if (!(gateway instanceof PaymentSimulator)) throw new Error('expected the simulator');
    expect(await gateway.mayCharge(organization.id, providerId)).toBe(false);
    const direct = await gateway.charge({
      amountCents: 100,
      providerPaymentMethodId: providerId,
      idempotencyKey: 'removed-card-direct',
      description: 'test',
      offSession: true,
    });
    expect(direct.status).toBe('failed');
    await expect(gateway.attachPaymentMethod(providerId, organization.id)).rejects.toThrow();
  });
});
