import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recorded } from '../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../test/render-app';

function expectNotFoundScreen() {
  expect(screen.getByRole('heading', { name: 'Looking for something?' })).toBeInTheDocument();
  expect(screen.getByText("We couldn't find the page that you're looking for")).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Head back' })).toBeInTheDocument();
}

describe('not-found screen', () => {
  it('shows for an unknown route, even without a session', async () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, { profile: null });
    renderApp('/this/does/not/exist', queryClient);
    expectNotFoundScreen();
  });

  it('shows for an unknown page below an organization', () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, {
      profile: recorded.profile.owner,
      organization: recorded.organization.acmePro,
    });
    renderApp('/org/acme-pro/settings', queryClient);
    expectNotFoundScreen();
  });

  it('shows for an organization the API answers 404 for, without leaking anything of it', async () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, {
      profile: recorded.profile.owner,
      organizations: recorded.organizations,
      missingOrganizations: ['outsider-org'],
    });
    renderApp('/org/outsider-org/billing', queryClient);
    expectNotFoundScreen();
    expect(screen.queryByRole('heading', { name: 'Billing' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Organization' })).not.toBeInTheDocument();
  });

  it('"Head back" returns to the first organization', async () => {
    const queryClient = createTestQueryClient();
    const first = recorded.organization.awsCo;
    expect(recorded.profile.owner.organizations[0]?.slug).toBe(first.slug);
    seedCache(queryClient, {
      profile: recorded.profile.owner,
      organizations: recorded.organizations,
      organization: first,
      projects: { [first.slug]: [] },
    });
    const { router, user } = renderApp('/nowhere', queryClient);
    await user.click(screen.getByRole('button', { name: 'Head back' }));
    expect(router.location().pathname).toBe(`/org/${first.slug}`);
    expect(await screen.findByRole('heading', { name: /AWS Co/ })).toBeInTheDocument();
  });
});
