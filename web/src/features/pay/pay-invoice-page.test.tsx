import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { recorded } from '../../../test/fixtures';
import { recordedBillingData } from '../../../test/recorded-billing-data';
import { withRealApi } from '../../../test/real-api';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { getInvoice } from '../../data/invoice-query';
import { getInvoices } from '../../data/invoices-query';
import { getInvoicePaymentLink } from '../../data/invoice-payment-link-mutation';
import { getPaymentMethods } from '../../data/payment-methods-query';
import type { Profile } from '@meterline/domain';

const transport = withRealApi();

/** The outstanding invoice of an organization, found through the app's own client. */
async function openInvoice(slug: string) {
  const invoices = await getInvoices(slug, 0, 100);
  const invoice = invoices.find((item) => item.status === 'open' && item.amount_due > 0);
  if (!invoice) throw new Error(`${slug} has no open invoice`);
  return invoice;
}

function renderPage(path: string, profile: Profile = recorded.profile.owner) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, { profile });
  return renderApp(path, queryClient);
}

async function payWith(user: ReturnType<typeof renderApp>['user'], number: string) {
  // The organization's saved cards come first when there are any: choose a new card.
  await screen.findByRole('button', { name: 'Pay' });
  const newCard = screen.queryByRole('radio', { name: 'New card' });
  if (newCard) await user.click(newCard);
  await user.type(await screen.findByLabelText('Card number'), number);
  await user.type(screen.getByLabelText('Expiry'), '1230');
  await user.type(screen.getByLabelText('CVC'), '123');
  await user.click(screen.getByRole('button', { name: 'Pay' }));
}

describe('hosted invoice payment page', () => {
  beforeEach(async () => {
    await transport().signIn('owner@example.com');
  });

  it('is where the payment link leads, and shows the invoice number and amount due', async () => {
    const invoice = await openInvoice('acme-pro');
    const { redirectUrl } = await getInvoicePaymentLink('acme-pro', invoice.id);
    expect(redirectUrl).toBe(`/pay/invoices/${invoice.id}?org=acme-pro`);
    renderPage(redirectUrl);
    expect(await screen.findByText(invoice.number)).toBeInTheDocument();
    const due = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
      invoice.amount_due / 100,
    );
    expect(screen.getByText(due, { selector: 'dd' })).toBeInTheDocument();
    // Its lines, each usage line as a quantity at a price, and the total the amount due is.
    const lines = screen.getByRole('table', { name: 'Invoice lines' });
    const detail = await getInvoice('acme-pro', invoice.id);
    for (const line of detail.lines) expect(lines).toHaveTextContent(line.description);
    expect(within(lines).getByRole('row', { name: /^Total/ })).toHaveTextContent(due);
    expect(lines).toHaveTextContent(/Compute Hours Micro\s*[\d,.]+ hours × \$0\.01344 per hour/);
    // The card fields are the payment port's, there once the provider is known.
    expect(await screen.findByRole('button', { name: 'Pay' })).toBeEnabled();
    expect(screen.getByText('Test mode')).toBeInTheDocument();
    // acme-pro holds $50.00 of credit: why it does not lower this invoice (§9).
    expect(await screen.findByText('This invoice is charged in full')).toBeInTheDocument();
    expect(
      screen.getByText(
        /Your organization holds \$50\.00 of credit\. Credits apply to future invoices only/,
      ),
    ).toBeInTheDocument();
  });

  it('shows a decline inline and leaves the invoice open', async () => {
    const invoice = await openInvoice('acme-pro');
    const { user } = renderPage(`/pay/invoices/${invoice.id}?org=acme-pro`);
    await payWith(user, '4000000000000002');
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Your card was declined.');
    expect((await getInvoice('acme-pro', invoice.id)).status).toBe('open');
  });

  it('fails with a failed 3-D Secure challenge and changes nothing', async () => {
    const invoice = await openInvoice('acme-pro');
    const { user } = renderPage(`/pay/invoices/${invoice.id}?org=acme-pro`);
    await payWith(user, '4000002500003155');
    const challenge = await screen.findByRole(
      'dialog',
      { name: "Confirm it's you" },
      { timeout: 10_000 },
    );
    await user.click(within(challenge).getByRole('button', { name: 'Fail authentication' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('We are unable to authenticate your payment method.');
    expect((await getInvoice('acme-pro', invoice.id)).status).toBe('open');
  });

  it('tells a developer that paying needs more permissions', async () => {
    await transport().signIn('developer@example.com');
    const invoice = await openInvoice('acme-pro');
    renderPage(`/pay/invoices/${invoice.id}?org=acme-pro`, recordedBillingData.profile.developer);
    await screen.findByText(invoice.number);
    expect(screen.getByText('You need additional permissions to pay invoices')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Pay' })).not.toBeInTheDocument();
  });

  it("offers acme-pro's saved cards to its owner, the default Visa first and chosen, beside a new card", async () => {
    const invoice = await openInvoice('acme-pro');
    const { user } = renderPage(`/pay/invoices/${invoice.id}?org=acme-pro`);
    const group = await screen.findByRole('group', { name: 'Pay with' });
    const radios = within(group).getAllByRole('radio');
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual([
      expect.stringMatching(/^Visa ending in 4242Expires \d{2}\/\d{4}Default$/),
      expect.stringMatching(/^Mastercard ending in 4444Expires/),
      'New card',
    ]);
    expect(within(group).getByRole('radio', { name: /Visa ending in 4242/ })).toBeChecked();
    // A saved card needs no card fields.
    expect(screen.queryByLabelText('Card number')).not.toBeInTheDocument();
    expect(screen.getByText(/will be charged to the Visa ending in 4242\.$/)).toBeInTheDocument();
    await user.click(within(group).getByRole('radio', { name: 'New card' }));
    expect(await screen.findByLabelText('Card number')).toBeInTheDocument();
    expect(
      screen.getByText(/will be charged to this card\. It is not saved\.$/),
    ).toBeInTheDocument();
  });

  it('starts restricted-co on a new card, and its declining saved card fails as a typed one does', async () => {
    const invoice = await openInvoice('restricted-co');
    const { user } = renderPage(`/pay/invoices/${invoice.id}?org=restricted-co`);
    const group = await screen.findByRole('group', { name: 'Pay with' });
    // Its default card declined the last charge: the page says so and starts on a new card.
    expect(within(group).getByRole('radio', { name: 'New card' })).toBeChecked();
    const saved = within(group).getByRole('radio', { name: /Visa ending in 0002/ });
    expect(saved.closest('label')).toHaveTextContent(/Last charge declined on/);
    await user.click(saved);
    await user.click(screen.getByRole('button', { name: 'Pay' }));
    const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(alert).toHaveTextContent('Your card was declined.');
    expect((await getInvoice('restricted-co', invoice.id)).status).toBe('open');
    const payments = transport()
      .writes()
      .filter(({ path }) => path.endsWith('/pay'));
    // The saved card is named by its id in the organization's list, never typed or tokenized.
    const { defaultPaymentMethodId } = await getPaymentMethods('restricted-co');
    expect(payments.at(-1)?.body).toEqual({ payment_method_id: defaultPaymentMethodId });
  });

  it('pays with 4242: the card goes to the provider, one payment with one Idempotency-Key, back to billing', async () => {
    const invoice = await openInvoice('acme-pro');
    const { user, router } = renderPage(`/pay/invoices/${invoice.id}?org=acme-pro`);
    await payWith(user, '4242424242424242');
    await waitFor(() => expect(router.location().pathname).toBe('/org/acme-pro/billing'), {
      timeout: 10_000,
    });
    expect(
      await screen.findByText(
        `Successfully paid invoice ${invoice.number}`,
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect((await getInvoice('acme-pro', invoice.id)).status).toBe('paid');

    // The card number goes only to the provider (the simulator's tokenization); Meterline's own
    // API gets the provider's payment method.
    const writes = transport().writes();
    const tokenized = writes.filter(({ path }) => path === '/platform/simulator/payment-methods');
    expect(tokenized).toHaveLength(1);
    expect(tokenized[0]?.body).toMatchObject({ card: { number: '4242424242424242' } });
    const payments = writes.filter(({ path }) => path.endsWith('/pay'));
    expect(payments).toHaveLength(1);
    expect(payments[0]?.path).toBe(
      `/platform/organizations/acme-pro/billing/invoices/${invoice.id}/pay`,
    );
    expect(payments[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(payments[0]?.body).toEqual({ payment_method_id: expect.stringMatching(/^pm_/) });
    const cardNumberSent = writes.filter(
      ({ path, body }) =>
        !path.startsWith('/platform/simulator/') && JSON.stringify(body).includes('4242424242'),
    );
    expect(cardNumberSent).toEqual([]);
  });

  it('pays after 3-D Secure: the same payment is sent again with its key once the challenge passed', async () => {
    const invoice = await openInvoice('restricted-co');
    const { user, router } = renderPage(`/pay/invoices/${invoice.id}?org=restricted-co`);
    await payWith(user, '4000002500003155');
    const challenge = await screen.findByRole(
      'dialog',
      { name: "Confirm it's you" },
      { timeout: 10_000 },
    );
    await user.click(within(challenge).getByRole('button', { name: 'Complete authentication' }));
    await waitFor(() => expect(router.location().pathname).toBe('/org/restricted-co/billing'), {
      timeout: 10_000,
    });
    expect(
      await screen.findByText(
        `Successfully paid invoice ${invoice.number}`,
        {},
        { timeout: 10_000 },
      ),
    ).toBeInTheDocument();
    expect((await getInvoice('restricted-co', invoice.id)).status).toBe('paid');
    const payments = transport()
      .writes()
      .filter(({ path }) => path.endsWith('/pay'));
    expect(payments).toHaveLength(2);
    expect(payments[1]?.headers['idempotency-key']).toBe(payments[0]?.headers['idempotency-key']);
    expect(payments[1]?.body).toEqual(payments[0]?.body);
  });

  it('is not found for an organization the user is not in', () => {
    renderPage('/pay/invoices/in_123?org=somebody-else');
    expect(screen.getByRole('heading', { name: 'Looking for something?' })).toBeInTheDocument();
  });
});
