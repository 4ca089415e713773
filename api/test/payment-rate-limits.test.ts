import { describe, expect, it } from 'vitest';
import { CARDS, invoicePaymentState, paymentMethod, tokenize } from './support/payments.ts';
import { useSignedInServer } from './support/server.ts';

// The limits are counted in the server's memory, before any SQL: the embedded database is enough here.
describe('rate limits on tokenizing a card and on Pay Now', () => {
  const { server, as } = useSignedInServer({});
  const db = () => server().database.db;
  const storedCards = async () =>
    (await db().selectFrom('simulator_payment_methods').select('id').execute()).length;

  it('tokenizes 30 cards a minute per user, then answers 429 with Retry-After and stores nothing', async () => {
    for (let attempt = 0; attempt < 29; attempt++) {
      expect((await tokenize(as('owner'), CARDS.visa)).status, `card ${attempt + 1}`).toBe(200);
    }
    // A refused card counts too: trying numbers out is what the limit is for.
    expect((await tokenize(as('owner'), '4242424242424241')).status).toBe(402);
    const before = await storedCards();
    const limited = await tokenize(as('owner'), CARDS.visa);
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/rate limit/i);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await storedCards()).toBe(before);
    // Per user: another member is not held back by the owner's attempts.
    expect((await tokenize(as('admin'), CARDS.visa)).status).toBe(200);
  });

  it('takes 30 Pay Now attempts a minute per user, then answers 429 with Retry-After and charges nothing', async () => {
    const invoices = await as('admin').get<{ id: string; status: string }[]>(
      '/platform/organizations/acme-pro/billing/invoices?limit=5',
    );
    const open = invoices.body.find((invoice) => invoice.status === 'open');
    if (!open) throw new Error('acme-pro has no open invoice');
    const pay = (user: string, paymentMethodId: string, key: string) =>
      as(user).post<{ message?: string; status?: string }>(
        `/platform/organizations/acme-pro/billing/invoices/${open.id}/pay`,
        { payment_method_id: paymentMethodId },
        { 'idempotency-key': key },
      );
    // The admin's card, tokenized before the admin's own Pay Now count starts.
    const visa = await paymentMethod(as('admin'), CARDS.visa);
    for (let attempt = 0; attempt < 30; attempt++) {
      const response = await pay('admin', 'pm_sim_nobody', `unknown-${attempt}`);
      expect(response.status, `attempt ${attempt + 1}`).toBe(404);
    }
    const limited = await pay('admin', visa, 'a-good-card-too-late');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await invoicePaymentState(db(), open.id)).toMatchObject({
      status: 'open',
      charges: 0,
    });
    // The owner has a count of their own.
    const owner = await pay('owner', 'pm_sim_nobody', 'owner-attempt');
    expect(owner.status).toBe(404);
  });
});
