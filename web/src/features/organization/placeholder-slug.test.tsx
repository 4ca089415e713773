import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recorded } from '../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../test/render-app';
import { lastOrganization, rememberOrganization } from '../../lib/last-organization';

function seeded() {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization: [
      recorded.organization.acmePro,
      recorded.organization.acmeFree,
      recorded.organization.awsCo,
    ],
  });
  return queryClient;
}

describe('the placeholder slug _', () => {
  it('opens the organization the user last visited, keeping the page, query and anchor', async () => {
    rememberOrganization('acme-free');
    const { router } = renderApp('/org/_/billing?setup_intent=seti_1#payment-methods', seeded());
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeInTheDocument();
    expect(router.location()).toMatchObject({
      pathname: '/org/acme-free/billing',
      search: '?setup_intent=seti_1',
      hash: '#payment-methods',
    });
  });

  it('falls back to the first organization without a remembered one', async () => {
    const { router } = renderApp('/org/_/billing', seeded());
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeInTheDocument();
    expect(router.location().pathname).toBe(
      `/org/${recorded.profile.owner.organizations[0]?.slug}/billing`,
    );
  });

  it('ignores a remembered organization the user no longer belongs to', async () => {
    rememberOrganization('outsider-org');
    const { router } = renderApp('/org/_/billing', seeded());
    expect(await screen.findByRole('heading', { name: 'Billing' })).toBeInTheDocument();
    expect(router.location().pathname).toBe('/org/aws-co/billing');
  });

  it('remembers the organization a page was opened for', async () => {
    renderApp('/org/acme-pro/usage', seeded());
    expect(await screen.findByRole('heading', { name: 'Usage' })).toBeInTheDocument();
    expect(lastOrganization()).toBe('acme-pro');
  });

  it('works for the /organization/_/usage form too', async () => {
    rememberOrganization('acme-pro');
    const { router } = renderApp('/organization/_/usage', seeded());
    expect(await screen.findByRole('heading', { name: 'Usage' })).toBeInTheDocument();
    expect(router.location().pathname).toBe('/organization/acme-pro/usage');
  });
});
