import type { Invoice, Organization, Profile } from '@meterline/domain';
import { act, screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { toast as appToast } from '../../../lib/toast';
import type { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedBilling } from '../../../../test/billing-fixtures';
import { recorded } from '../../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../../test/render-app';
import { seedBilling, type BillingSeed } from '../../../../test/seed-billing';
import { NETWORK_ERROR_MESSAGE } from '../../../data/api-client';
import { invoiceKeys } from '../../../data/keys';

// The spec's texts, typed out independently of the implementation.
const FAILED_TOOLTIP =
  'We were not able to collect the payment. Make sure you have a valid payment method and enough funds. Outstanding invoices may cause restrictions on your organization and projects.';

const acmePro = recorded.organization.acmePro;
/** A toast's title, where sonner renders it. */
const TOAST = '[data-sonner-toast] [data-title]';
const acmeProInvoices = {
  pages: recordedBilling.invoices.acmePro,
  total: recordedBilling.invoicesCount.acmePro,
};

function renderInvoices(
  organization: Organization = acmePro,
  seed: BillingSeed = { invoices: acmeProInvoices },
  {
    profile = recorded.profile.owner,
    seedOthers,
  }: {
    profile?: Profile;
    seedOthers?: (queryClient: QueryClient) => void;
  } = {},
) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile,
    organizations: recorded.organizations,
    organization: [acmePro, recorded.organization.acmeFree, organization],
  });
  seedBilling(queryClient, organization.slug, seed);
  seedOthers?.(queryClient);
  const view = renderApp(`/org/${organization.slug}/billing`, queryClient);
  return { ...view, queryClient, section: () => screen.getByRole('region', { name: 'Invoices' }) };
}

function invoiceRows(section: HTMLElement): HTMLElement[] {
  return within(section).getAllByRole('row').slice(1);
}

function numbersShown(section: HTMLElement): string[] {
  return invoiceRows(section).map((row) => within(row).getByText(/^ML-/).textContent ?? '');
}

describe('past invoices', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    // Sonner keeps its toasts in module state: start every test without the last one's.
    toast.dismiss();
  });

  it('pages through acme-pro’s 13 invoices in 3 pages, none repeated or skipped', async () => {
    const { section, user } = renderInvoices();
    const seen: string[] = [];
    const texts: string[] = [];
    const next = within(section()).getByRole('button', { name: 'Next page' });
    const previous = within(section()).getByRole('button', { name: 'Previous page' });
    expect(previous).toBeDisabled();

    for (let page = 1; page <= 3; page++) {
      await waitFor(() => expect(numbersShown(section())).not.toEqual(seen.slice(-5)));
      seen.push(...numbersShown(section()));
      texts.push(within(section()).getByText(/^Showing/).textContent ?? '');
      if (page < 3) await user.click(next);
    }
    expect(next).toBeDisabled();
    expect(texts).toEqual([
      'Showing 1 to 5 out of 13 invoices',
      'Showing 6 to 10 out of 13 invoices',
      'Showing 11 to 13 out of 13 invoices',
    ]);
    expect(seen).toHaveLength(13);
    expect(new Set(seen).size).toBe(13);
    // Newest first, exactly as the API listed them.
    expect(seen).toEqual(recordedBilling.invoices.acmePro.flat().map((invoice) => invoice.number));

    await user.click(previous);
    expect(within(section()).getByText('Showing 6 to 10 out of 13 invoices')).toBeInTheDocument();
  });

  it('keeps the keyboard focus on the paging buttons', async () => {
    const { section, user } = renderInvoices();
    const next = within(section()).getByRole('button', { name: 'Next page' });
    const previous = within(section()).getByRole('button', { name: 'Previous page' });
    next.focus();
    await user.keyboard('{Enter}');
    await within(section()).findByText('Showing 6 to 10 out of 13 invoices');
    expect(next).toHaveFocus();
    await waitFor(() => expect(next).not.toHaveAttribute('aria-disabled'));
    await user.keyboard('{Enter}');
    await within(section()).findByText('Showing 11 to 13 out of 13 invoices');
    // The last page: Next is disabled, and the focus moved to Previous rather than to the page.
    expect(next).toBeDisabled();
    expect(previous).toHaveFocus();
    await user.keyboard('{Enter}');
    await within(section()).findByText('Showing 6 to 10 out of 13 invoices');
    await user.keyboard('{Enter}');
    await within(section()).findByText('Showing 1 to 5 out of 13 invoices');
    expect(previous).toBeDisabled();
    expect(next).toHaveFocus();
  });

  it('shows date, number, amount and status label of each invoice', () => {
    const { section } = renderInvoices();
    const [open, forgiven, paid] = invoiceRows(section());
    // Recorded: ML-M8ZG2KB-0013 open, 12932 cents, period end 2026-11-09.
    expect(open).toHaveTextContent('Nov 09, 2026');
    expect(open).toHaveTextContent('ML-M8ZG2KB-0013');
    expect(open).toHaveTextContent('$129.32');
    expect(within(open as HTMLElement).getByText('Outstanding')).toBeInTheDocument();
    expect(within(forgiven as HTMLElement).getByText('Forgiven')).toBeInTheDocument();
    expect(forgiven).toHaveTextContent('$125.94');
    expect(within(paid as HTMLElement).getByText('Paid')).toBeInTheDocument();
  });

  it('offers Pay Now only on the outstanding invoice, with the payment tooltip', async () => {
    const { section, user } = renderInvoices();
    const rows = invoiceRows(section());
    const payNow = within(section()).getAllByRole('button', { name: 'Pay Now' });
    expect(payNow).toHaveLength(1);
    expect(rows[0]).toContainElement(payNow[0] as HTMLElement);

    const hints = within(section()).getAllByRole('button', { name: 'About this payment' });
    expect(hints).toHaveLength(1);
    expect(hints[0]).toHaveAccessibleDescription(FAILED_TOOLTIP);

    // The other pages have nothing to pay.
    for (let page = 2; page <= 3; page++) {
      await user.click(within(section()).getByRole('button', { name: 'Next page' }));
      await screen.findByText(new RegExp(`^Showing ${page * 5 - 4} to`));
      expect(within(section()).queryByRole('button', { name: 'Pay Now' })).toBeNull();
      expect(within(section()).queryByRole('button', { name: 'About this payment' })).toBeNull();
    }
  });

  it('says an unattempted invoice will soon be charged', () => {
    const [first, ...rest] = recordedBilling.invoices.acmePro[0] ?? [];
    const pending = { ...(first as Invoice), payment_attempted: false };
    const { section } = renderInvoices(acmePro, {
      invoices: { pages: [[pending, ...rest]], total: 5 },
    });
    expect(
      within(section()).getByRole('button', { name: 'About this payment' }),
    ).toHaveAccessibleDescription(
      'This invoice will soon be charged to your default payment method. To pay it right away, use "Pay Now".',
    );
  });

  it('hides Pay Now from members who may not pay', () => {
    const { section } = renderInvoices(
      acmePro,
      { invoices: acmeProInvoices },
      {
        profile: recorded.profile.readonly,
      },
    );
    expect(within(section()).getByText('ML-M8ZG2KB-0013')).toBeInTheDocument();
    expect(within(section()).queryByRole('button', { name: 'Pay Now' })).toBeNull();
    expect(within(section()).getAllByRole('button', { name: 'Download invoice' })).toHaveLength(5);
  });

  it('shows the redirect, then the error, and fetches the list and count again', async () => {
    const { section, user, queryClient } = renderInvoices();
    const before = queryClient.getQueryState(invoiceKeys.count('acme-pro'))?.dataUpdatedAt;
    await user.click(within(section()).getByRole('button', { name: 'Pay Now' }));
    // jsdom has no server: the payment link request fails as a network failure does.
    expect(await screen.findByText(NETWORK_ERROR_MESSAGE, { selector: TOAST })).toBeInTheDocument();
    await waitFor(() => {
      const count = queryClient.getQueryState(invoiceKeys.count('acme-pro'));
      const list = queryClient.getQueryState(invoiceKeys.list('acme-pro', 0, 5));
      expect(count?.fetchFailureCount).toBeGreaterThan(0);
      expect(list?.fetchFailureCount).toBeGreaterThan(0);
    });
    expect(queryClient.getQueryState(invoiceKeys.count('acme-pro'))?.dataUpdatedAt).toBe(before);
    // What was shown stays: a failed refresh does not blank the list.
    expect(within(section()).getByText('Showing 1 to 5 out of 13 invoices')).toBeInTheDocument();
  });

  it('announces the redirect to the payment gateway, then replaces it with the error', async () => {
    // Without a server the request fails before the loading toast is painted: watch the call.
    const loading = vi.spyOn(appToast, 'loading');
    const { section, user } = renderInvoices();
    await user.click(within(section()).getByRole('button', { name: 'Pay Now' }));
    expect(loading).toHaveBeenCalledWith('Redirecting to payment gateway...', {
      id: 'pay-now-redirect',
    });
    const error = await screen.findByText(NETWORK_ERROR_MESSAGE, { selector: TOAST });
    expect(error.closest('[data-sonner-toast]')).toHaveAttribute('data-type', 'error');
    expect(screen.queryByText('Redirecting to payment gateway...')).toBeNull();
  });

  it('opens the PDF of a downloaded invoice in the tab opened on the click', async () => {
    const detail = recordedBilling.invoice.acmeProOpen;
    const tab = { location: { href: '' }, opener: {}, close: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { section, user } = renderInvoices(acmePro, {
      invoices: acmeProInvoices,
      invoiceDetails: [detail],
    });
    const [first] = invoiceRows(section());
    await user.click(
      within(first as HTMLElement).getByRole('button', { name: 'Download invoice' }),
    );
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tab.location.href).toBe(detail.invoice_pdf));
    expect(detail.invoice_pdf).toBe(
      `/platform/organizations/acme-pro/billing/invoices/${detail.id}/pdf`,
    );
    expect(tab.opener).toBeNull();
    expect(tab.close).not.toHaveBeenCalled();
  });

  it('closes the tab and says why when the invoice cannot be fetched', async () => {
    const tab = { location: { href: '' }, opener: {}, close: vi.fn() };
    vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
    const { section, user } = renderInvoices();
    const [, second] = invoiceRows(section());
    await user.click(
      within(second as HTMLElement).getByRole('button', { name: 'Download invoice' }),
    );
    expect(
      await screen.findByText(`Failed to fetch the selected invoice: ${NETWORK_ERROR_MESSAGE}`),
    ).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
    expect(tab.location.href).toBe('');
  });

  it('has the empty state for acme-free', () => {
    const { section } = renderInvoices(recorded.organization.acmeFree, {
      invoices: {
        pages: recordedBilling.invoices.acmeFree,
        total: recordedBilling.invoicesCount.acmeFree,
      },
    });
    expect(
      within(section()).getByText('No invoices for this organization yet'),
    ).toBeInTheDocument();
    expect(within(section()).queryByRole('table')).toBeNull();
  });

  it('shows six skeleton rows while loading, then the spec’s errors', async () => {
    const { section } = renderInvoices(acmePro, {});
    expect(within(section()).getAllByTestId('invoice-skeleton-row')).toHaveLength(6);
    expect(await within(section()).findByText('Failed to retrieve invoices')).toBeInTheDocument();
  });

  it('keeps the list when only the count fails', async () => {
    const { section } = renderInvoices(
      acmePro,
      {},
      {
        seedOthers: (queryClient) =>
          queryClient.setQueryData(
            invoiceKeys.list('acme-pro', 0, 5),
            recordedBilling.invoices.acmePro[0],
          ),
      },
    );
    expect(
      await within(section()).findByText('Failed to retrieve total number of invoices'),
    ).toBeInTheDocument();
    expect(invoiceRows(section())).toHaveLength(5);
  });

  it('starts again at page 1 in another organization', async () => {
    const { section, user, router } = renderInvoices(
      acmePro,
      { invoices: acmeProInvoices },
      {
        seedOthers: (queryClient) =>
          seedBilling(queryClient, 'acme-free', {
            invoices: {
              pages: recordedBilling.invoices.acmeFree,
              total: recordedBilling.invoicesCount.acmeFree,
            },
          }),
      },
    );
    await user.click(within(section()).getByRole('button', { name: 'Next page' }));
    expect(within(section()).getByText('Showing 6 to 10 out of 13 invoices')).toBeInTheDocument();

    await act(() => router.navigate('/org/acme-free/billing'));
    expect(
      within(section()).getByText('No invoices for this organization yet'),
    ).toBeInTheDocument();
    await act(() => router.navigate('/org/acme-pro/billing'));
    expect(within(section()).getByText('Showing 1 to 5 out of 13 invoices')).toBeInTheDocument();
  });
});
