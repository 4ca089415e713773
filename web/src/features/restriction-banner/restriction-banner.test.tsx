import type { Invoice, Organization, OrgUsage } from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from '../../lib/toast';
import { describe, expect, it, vi } from 'vitest';
import { NETWORK_ERROR_MESSAGE } from '../../data/api-client';
import { recordedBilling } from '../../../test/billing-fixtures';
import { recorded } from '../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { seedBilling } from '../../../test/seed-billing';

function renderOrgPage(
  organization: Organization,
  usage: OrgUsage | undefined,
  page = 'billing',
  invoices?: Invoice[],
) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization,
    projects: { [organization.slug]: [] },
  });
  seedBilling(queryClient, organization.slug, {
    usage,
    ...(invoices ? { invoices: { pages: [invoices], total: invoices.length } } : {}),
  });
  return renderApp(`/org/${organization.slug}/${page}`, queryClient);
}

function banner(): HTMLElement {
  return screen.getByRole('region', { name: 'Usage limits' });
}

describe('restriction banner', () => {
  it('is destructive when capped usage exceeds the free quota without a restriction', () => {
    const org = recordedBilling.organization.limitsCo;
    renderOrgPage(org, recordedBilling.usage.limitsCo);
    expect(banner()).toHaveAttribute('data-variant', 'destructive');
    expect(
      within(banner()).getByText('This organization has gone over the usage included in its plan'),
    ).toBeInTheDocument();
    expect(banner()).toHaveTextContent(
      'Egress and Database Size are above the Free plan’s quota for this billing cycle.',
    );
    expect(within(banner()).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute(
      'href',
      '/org/limits-co/billing?panel=subscriptionPlan',
    );
    expect(within(banner()).getByRole('link', { name: 'View usage' })).toHaveAttribute(
      'href',
      '/org/limits-co/usage',
    );
  });

  it('hides "View usage" on the usage page itself', () => {
    renderOrgPage(recordedBilling.organization.limitsCo, recordedBilling.usage.limitsCo, 'usage');
    expect(within(banner()).getByRole('link', { name: 'Upgrade plan' })).toBeInTheDocument();
    expect(within(banner()).queryByRole('link', { name: 'View usage' })).toBeNull();
  });

  it('warns of the grace period with its end date and the violation', () => {
    renderOrgPage(recordedBilling.organization.graceCo, recordedBilling.usage.graceCo);
    expect(banner()).toHaveAttribute('data-variant', 'warning');
    // Recorded grace_period_end 1795660787: 2026-11-26T02:39:47Z.
    expect(
      within(banner()).getByText('This organization is in a grace period until 26 Nov, 2026'),
    ).toBeInTheDocument();
    const violations = within(banner()).getByRole('list', { name: 'Violations' });
    expect(
      within(violations)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Egress Exceeded']);
    expect(within(banner()).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute(
      'href',
      '/org/grace-co/billing?panel=subscriptionPlan&source=fairUseGracePeriodStarted',
    );
  });

  it('warns that the Fair Use Policy applies once the grace period is over', () => {
    renderOrgPage(recordedBilling.organization.fairuseCo, recordedBilling.usage.fairuseCo);
    expect(banner()).toHaveAttribute('data-variant', 'warning');
    expect(
      within(banner()).getByText('The grace period has ended and the Fair Use Policy now applies'),
    ).toBeInTheDocument();
    const violations = within(banner()).getByRole('list', { name: 'Violations' });
    expect(
      within(violations)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Egress Exceeded', 'Storage Size Exceeded']);
    expect(within(banner()).getByRole('link', { name: 'Upgrade plan' })).toHaveAttribute(
      'href',
      '/org/fairuse-co/billing?panel=subscriptionPlan&source=fairUseGracePeriodOver',
    );
  });

  // restricted-co's recorded organization: Pro with the spend cap on, restricted for an overdue invoice.
  const restrictedCo = recordedBilling.organization.restrictedCo;
  // Its one open invoice, 20 days old, as the invoices list answers it (acme-pro's open one, moved).
  const [acmeProOpen] = recordedBilling.invoices.acmePro[0] ?? [];
  if (!acmeProOpen) throw new Error('acme-pro has an open invoice');
  const overdueInvoice: Invoice = { ...acmeProOpen, id: 'in_overdue', status: 'open' };

  it('asks a restricted organization to pay its overdue invoice and replace its card, not to change the spend cap', async () => {
    renderOrgPage(restrictedCo, recordedBilling.usage.restrictedCo, 'billing', [overdueInvoice]);
    expect(banner()).toHaveAttribute('data-variant', 'destructive');
    expect(
      within(banner()).getByText('All services of this organization are restricted'),
    ).toBeInTheDocument();
    expect(banner()).toHaveTextContent('Paying it lifts the restriction right away.');
    expect(within(banner()).getByText('Overdue Payment')).toBeInTheDocument();
    expect(within(banner()).queryByRole('link', { name: /spend cap/ })).toBeNull();
    expect(
      within(banner()).getByRole('button', { name: 'Pay outstanding invoice' }),
    ).toBeInTheDocument();
    expect(within(banner()).getByRole('link', { name: 'Replace card' })).toHaveAttribute(
      'href',
      '/org/restricted-co/billing#payment-methods',
    );
  });

  it('leads to the invoices while the overdue invoice is not known, and never to the spend cap', async () => {
    renderOrgPage(restrictedCo, undefined);
    expect(within(banner()).getByRole('link', { name: 'Pay outstanding invoice' })).toHaveAttribute(
      'href',
      '/org/restricted-co/billing#invoices',
    );
    expect(within(banner()).queryByRole('link', { name: /spend cap/ })).toBeNull();
  });

  it('asks for the payment link of the overdue invoice when "Pay outstanding invoice" is clicked', async () => {
    const user = userEvent.setup();
    renderOrgPage(restrictedCo, recordedBilling.usage.restrictedCo, 'billing', [overdueInvoice]);
    const loading = vi.spyOn(toast, 'loading');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    await user.click(within(banner()).getByRole('button', { name: 'Pay outstanding invoice' }));
    expect(loading).toHaveBeenCalledWith('Redirecting to payment gateway...', {
      id: 'pay-now-redirect',
    });
    expect(String(fetchSpy.mock.calls[0]?.[0])).toContain(
      '/platform/organizations/restricted-co/billing/invoices/in_overdue/payment-link',
    );
    // jsdom has no server: the request fails as a network failure does, and says so.
    expect(
      await screen.findByText(NETWORK_ERROR_MESSAGE, {
        selector: '[data-sonner-toast] [data-title]',
      }),
    ).toBeInTheDocument();
  });

  it('does not show when nothing applies', () => {
    renderOrgPage(recorded.organization.acmePro, recordedBilling.usage.acmePro);
    expect(screen.queryByRole('region', { name: 'Usage limits' })).toBeNull();
  });

  it('shows on every organization page', () => {
    renderOrgPage(recordedBilling.organization.graceCo, recordedBilling.usage.graceCo, '');
    expect(banner()).toBeInTheDocument();
  });
});
