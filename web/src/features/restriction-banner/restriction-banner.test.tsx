import type { Organization, OrgUsage } from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordedBilling } from '../../../test/billing-fixtures';
import { recorded } from '../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { seedBilling } from '../../../test/seed-billing';

function renderOrgPage(organization: Organization, usage: OrgUsage | undefined, page = 'billing') {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization,
    projects: { [organization.slug]: [] },
  });
  seedBilling(queryClient, organization.slug, { usage });
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

  it('says a restricted pro organization’s services are restricted, with the spend-cap action', () => {
    renderOrgPage(recordedBilling.organization.restrictedCo, recordedBilling.usage.restrictedCo);
    expect(banner()).toHaveAttribute('data-variant', 'destructive');
    expect(
      within(banner()).getByText('All services of this organization are restricted'),
    ).toBeInTheDocument();
    expect(within(banner()).getByText('Overdue Payment')).toBeInTheDocument();
    // Recorded: pro with the spend cap on (usage_billing_enabled false).
    expect(within(banner()).getByRole('link', { name: 'Disable spend cap' })).toHaveAttribute(
      'href',
      '/org/restricted-co/billing?panel=costControl&source=fairUseRestricted',
    );
    expect(within(banner()).getByRole('link', { name: 'View invoices' })).toHaveAttribute(
      'href',
      '/org/restricted-co/billing#invoices',
    );
  });

  it('reads "Change spend cap" on a paid plan while the usage is not known yet', () => {
    renderOrgPage(recordedBilling.organization.restrictedCo, undefined);
    expect(within(banner()).getByRole('link', { name: 'Change spend cap' })).toHaveAttribute(
      'href',
      '/org/restricted-co/billing?panel=costControl&source=fairUseRestricted',
    );
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
