import type { Organization, Profile } from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recorded } from '../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { recordedEvents } from '../../lib/analytics';

const ALL = [
  'subscription',
  'cost-control',
  'spend-alerts',
  'breakdown',
  'invoices',
  'payment-methods',
  'credits-balance',
  'email',
  'address',
];

// The spec's texts, typed out independently of the implementation.
const HEADINGS: Record<string, string> = {
  subscription: 'Subscription plan',
  'cost-control': 'Cost control',
  'spend-alerts': 'Spend alerts',
  breakdown: 'Upcoming invoice',
  invoices: 'Invoices',
  'payment-methods': 'Payment methods',
  'credits-balance': 'Credit balance',
  email: 'Email recipients',
  address: 'Billing address & tax ID',
};

const DENIED: Record<string, string> = {
  subscription: "You need additional permissions to view this organization's subscription",
  'cost-control': "You need additional permissions to update this organization's cost control",
  'spend-alerts': "You need additional permissions to view this organization's spend alerts",
  breakdown: "You need additional permissions to view this organization's upcoming invoice",
  invoices: "You need additional permissions to view this organization's invoices",
  'payment-methods': "You need additional permissions to view this organization's payment methods",
  'credits-balance': "You need additional permissions to view this organization's credits",
  email: "You need additional permissions to view this organization's email recipients",
  address: "You need additional permissions to view this organization's billing address",
};

const CONTACT = 'Contact your organization owner or administrator for assistance.';

function renderBilling(
  organization: Organization,
  { profile = recorded.profile.owner, query = '' }: { profile?: Profile; query?: string } = {},
) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, { profile, organizations: recorded.organizations, organization });
  return renderApp(`/org/${organization.slug}/billing${query}`, queryClient);
}

function sectionIds(): string[] {
  return within(screen.getByRole('main'))
    .queryAllByRole('region')
    .map((region) => region.id);
}

function section(id: string): HTMLElement {
  return within(screen.getByRole('main'))
    .getAllByRole('region')
    .find((region) => region.id === id) as HTMLElement;
}

describe('billing page frame', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows every section, in the spec order and with its heading, for a paid plan', () => {
    renderBilling(recorded.organization.acmePro);
    expect(screen.getByRole('heading', { level: 1, name: 'Billing' })).toBeInTheDocument();
    expect(sectionIds()).toEqual(ALL);
    for (const id of ALL) {
      const region = screen.getByRole('region', { name: HEADINGS[id] });
      expect(region).toHaveAttribute('id', id);
      expect(within(region).getByRole('heading', { level: 2 })).toHaveTextContent(
        HEADINGS[id] ?? '',
      );
    }
    expect(screen.queryByText(/You need additional permissions/)).not.toBeInTheDocument();
  });

  it('has no upcoming invoice and no spend alerts on the free plan', () => {
    renderBilling(recorded.organization.acmeFree);
    expect(sectionIds()).toEqual(ALL.filter((id) => id !== 'breakdown' && id !== 'spend-alerts'));
  });

  it('follows the feature flags of the profile', () => {
    const profile = {
      ...recorded.profile.owner,
      disabled_features: ['invoices', 'credits'] as Profile['disabled_features'],
    };
    renderBilling(recorded.organization.acmePro, { profile });
    expect(sectionIds()).toEqual([
      'subscription',
      'cost-control',
      'spend-alerts',
      'breakdown',
      'payment-methods',
      'email',
      'address',
    ]);
  });

  it('drops email and address without billing account data', () => {
    const profile = {
      ...recorded.profile.owner,
      disabled_features: [
        'billing_account_data',
        'payment_methods',
      ] as Profile['disabled_features'],
    };
    renderBilling(recorded.organization.acmePro, { profile });
    expect(sectionIds()).toEqual([
      'subscription',
      'cost-control',
      'spend-alerts',
      'breakdown',
      'invoices',
      'credits-balance',
    ]);
  });

  it('shows a way back to the organization instead when billing is off', () => {
    const profile = {
      ...recorded.profile.owner,
      disabled_features: ['billing'] as Profile['disabled_features'],
    };
    renderBilling(recorded.organization.acmePro, { profile });
    expect(sectionIds()).toEqual([]);
    expect(screen.getByRole('link', { name: /Back to Acme Pro/ })).toHaveAttribute(
      'href',
      '/org/acme-pro',
    );
  });

  describe('billed via a partner', () => {
    it('keeps payment methods, email and address off and points invoices to the partner', () => {
      renderBilling(recorded.organization.vercel);
      expect(sectionIds()).toEqual([
        'subscription',
        'cost-control',
        'spend-alerts',
        'breakdown',
        'invoices',
        'credits-balance',
      ]);
      expect(
        within(section('invoices')).getByText(
          'Invoices for this organization are issued by Vercel.',
        ),
      ).toBeInTheDocument();
      expect(
        within(section('subscription')).getByText("This organization's plan is managed by Vercel."),
      ).toBeInTheDocument();
    });

    it('names the cloud provider for its organizations', () => {
      renderBilling(recorded.organization.awsCo);
      expect(
        within(section('invoices')).getByText('Invoices for this organization are issued by AWS.'),
      ).toBeInTheDocument();
      expect(
        within(section('subscription')).getByText(
          "This organization's plan is managed by AWS Marketplace.",
        ),
      ).toBeInTheDocument();
    });

    it('names the hosting provider, whose organizations Meterline still manages', () => {
      renderBilling(recorded.organization.flyCo);
      expect(
        within(section('invoices')).getByText(
          'Invoices for this organization are issued by Fly.io.',
        ),
      ).toBeInTheDocument();
      expect(within(section('subscription')).queryByText(/managed by/)).not.toBeInTheDocument();
    });
  });

  describe('permissions', () => {
    it('shows a read-only member the notices for payment methods and the billing address only', () => {
      renderBilling(recorded.organization.acmePro, { profile: recorded.profile.readonly });
      expect(sectionIds()).toEqual(ALL);
      for (const id of ALL) {
        // The section's read notice; a readable section may still say what the member cannot
        // change (e.g. the billing emails).
        const notice = within(section(id)).queryByText(DENIED[id] ?? '');
        if (id === 'payment-methods' || id === 'address') {
          expect(notice).toBeInTheDocument();
          expect(within(section(id)).getByText(CONTACT)).toBeInTheDocument();
        } else {
          expect(notice).not.toBeInTheDocument();
        }
      }
    });

    it('shows every section its own notice when the profile gives no role in the organization', () => {
      const profile = {
        ...recorded.profile.owner,
        organizations: recorded.profile.owner.organizations.filter(
          (org) => org.slug !== 'acme-pro',
        ),
      };
      renderBilling(recorded.organization.acmePro, { profile });
      for (const id of ALL) {
        expect(within(section(id)).getByText(DENIED[id] ?? '')).toBeInTheDocument();
        expect(within(section(id)).getByText(CONTACT)).toBeInTheDocument();
      }
    });
  });

  describe('query parameters', () => {
    it('scrolls to the top for a known panel and passes the source to analytics', () => {
      const scrollTo = vi.spyOn(window, 'scrollTo');
      renderBilling(recorded.organization.acmePro, {
        query: '?panel=costControl&source=fairUseRestricted',
      });
      expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
      expect(recordedEvents()).toEqual([
        {
          name: 'billing_page_viewed',
          properties: { organization: 'acme-pro', source: 'fairUseRestricted' },
        },
      ]);
    });

    it('ignores unknown panels and sources', () => {
      const scrollTo = vi.spyOn(window, 'scrollTo');
      renderBilling(recorded.organization.acmePro, { query: '?panel=somethingElse&source=x' });
      // The router restores its own scroll position; the panel's scroll to the top did not happen.
      expect(scrollTo).not.toHaveBeenCalledWith({ top: 0 });
      expect(recordedEvents()).toEqual([
        { name: 'billing_page_viewed', properties: { organization: 'acme-pro', source: null } },
      ]);
    });
  });
});
