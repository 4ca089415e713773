import type { Organization, Profile, Subscription } from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordedBilling } from '../../../../test/billing-fixtures';
import { recorded } from '../../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../../test/render-app';
import { seedBilling } from '../../../../test/seed-billing';

function renderSubscription(
  organization: Organization,
  subscription: Subscription | undefined,
  { profile = recorded.profile.owner, query = '' }: { profile?: Profile; query?: string } = {},
) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, { profile, organizations: recorded.organizations, organization });
  seedBilling(queryClient, organization.slug, {
    subscription,
    plans: organization.slug === 'acme-pro' ? recordedBilling.plans.acmePro : undefined,
  });
  const view = renderApp(`/org/${organization.slug}/billing${query}`, queryClient);
  return { ...view, section: screen.getByRole('region', { name: 'Subscription plan' }) };
}

const LIMITED = 'This organization is limited by the usage included in its plan';

describe('subscription section', () => {
  it('names the plan and its price, and links to the plan panel', async () => {
    const { section, user, router } = renderSubscription(
      recorded.organization.acmePro,
      recordedBilling.subscription.acmePro,
      { query: '?source=fairUseRestricted' },
    );
    expect(within(section).getByText('Pro plan')).toBeInTheDocument();
    expect(within(section).getByText('$25.00 per month')).toBeInTheDocument();
    const change = within(section).getByRole('link', { name: 'Change subscription plan' });
    expect(change).toHaveAttribute(
      'href',
      '/org/acme-pro/billing?source=fairUseRestricted&panel=subscriptionPlan',
    );
    await user.click(change);
    expect(router.location().pathname).toBe('/org/acme-pro/billing');
    expect(new URLSearchParams(router.location().search).get('panel')).toBe('subscriptionPlan');
  });

  it('asks a capped pro organization to disable the spend cap', () => {
    const { section } = renderSubscription(
      recorded.organization.acmePro,
      recordedBilling.subscription.acmePro,
    );
    expect(within(section).getByText(LIMITED)).toBeInTheDocument();
    expect(within(section).getByText(/disable the spend cap\.$/)).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'View usage' })).toHaveAttribute(
      'href',
      '/org/acme-pro/usage',
    );
  });

  it('asks a free organization to upgrade', () => {
    const { section } = renderSubscription(
      recorded.organization.acmeFree,
      recordedBilling.subscription.acmeFree,
    );
    expect(within(section).getByText('Free plan')).toBeInTheDocument();
    expect(within(section).getByText(LIMITED)).toBeInTheDocument();
    expect(within(section).getByText(/upgrade to a paid plan\.$/)).toBeInTheDocument();
  });

  it('has no note when usage beyond the quota is billed', () => {
    const { section } = renderSubscription(
      recordedBilling.organization.paygCo,
      recordedBilling.subscription.paygCo,
    );
    expect(within(section).getByText('Pro plan')).toBeInTheDocument();
    expect(within(section).queryByText(LIMITED)).toBeNull();
  });

  it('disables the change while project updates are switched off, and says why', () => {
    const profile = { ...recorded.profile.owner, project_updates_disabled: true };
    const { section } = renderSubscription(
      recorded.organization.acmePro,
      recordedBilling.subscription.acmePro,
      { profile },
    );
    expect(within(section).queryByRole('link', { name: 'Change subscription plan' })).toBeNull();
    const button = within(section).getByRole('button', { name: 'Change subscription plan' });
    expect(button).toBeDisabled();
    expect(button.parentElement).toHaveAccessibleDescription(
      'Subscription changes are currently disabled. Our engineers are working on a fix.',
    );
  });

  it('disables the change on the enterprise plan', () => {
    const subscription = {
      ...recordedBilling.subscription.acmePro,
      plan: { id: 'enterprise' as const, name: 'Enterprise' },
    };
    const { section } = renderSubscription(recorded.organization.acmePro, subscription);
    expect(
      within(section).getByRole('button', { name: 'Change subscription plan' }),
    ).toBeDisabled();
  });

  it('says when the subscription could not be retrieved', async () => {
    const { section } = renderSubscription(recorded.organization.acmePro, undefined);
    expect(within(section).getByText('Loading subscription')).toBeInTheDocument();
    expect(await within(section).findByText('Failed to retrieve subscription')).toBeInTheDocument();
  });
});
