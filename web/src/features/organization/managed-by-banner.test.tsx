import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recorded } from '../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { partnerLinkKeys } from '../../data/keys';

function seeded(organization = recorded.organization.vercel) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization,
    projects: { [organization.slug]: [] },
  });
  return queryClient;
}

describe('managed-by banner', () => {
  afterEach(() => vi.restoreAllMocks());

  it('names the partner and keeps "Manage" disabled until the link is known', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const queryClient = seeded();
    const { user } = renderApp('/org/vercel_icfg_demo123', queryClient);

    const banner = screen.getByRole('region', { name: 'Partner management' });
    expect(within(banner).getByText('This organization is managed by Vercel.')).toBeInTheDocument();
    const manage = within(banner).getByRole('button', { name: 'Manage' });
    expect(manage).toBeDisabled();

    // The installation link lookup answers (recorded for installation icfg_demo123).
    act(() => {
      queryClient.setQueryData(
        partnerLinkKeys.vercelInstallation('icfg_demo123'),
        recorded.partnerLink.vercel,
      );
    });
    await waitFor(() => expect(manage).toBeEnabled());
    await user.click(manage);
    expect(open).toHaveBeenCalledWith(
      '/partners/vercel/installations/icfg_demo123',
      '_blank',
      'noopener,noreferrer',
    );
  });

  it('names the cloud-provider marketplace for its organizations', () => {
    renderApp('/org/aws-co', seeded(recorded.organization.awsCo));
    expect(
      screen.getByText('This organization is managed by AWS Marketplace.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Manage' })).toBeDisabled();
  });

  it('treats the deployment-platform slug prefix as partner-managed', () => {
    const organization = { ...recorded.organization.vercel, managed_by: 'platform' as const };
    renderApp('/org/vercel_icfg_demo123', seeded(organization));
    expect(screen.getByText('This organization is managed by Vercel.')).toBeInTheDocument();
  });

  it('does not show for organizations the product manages itself', () => {
    renderApp('/org/acme-pro', seeded(recorded.organization.acmePro));
    expect(screen.queryByRole('region', { name: 'Partner management' })).not.toBeInTheDocument();
    expect(screen.queryByText(/This organization is managed by/)).not.toBeInTheDocument();
  });

  it('shows on every organization page, billing included', () => {
    renderApp('/org/fly-co/billing', seeded(recorded.organization.flyCo));
    // Fly.io bills this organization, but Meterline manages it: no banner.
    expect(screen.queryByRole('region', { name: 'Partner management' })).not.toBeInTheDocument();
  });
});
