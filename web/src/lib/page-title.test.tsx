import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { recorded } from '../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../test/render-app';
import { pageTitle } from './page-title';

describe('pageTitle', () => {
  it('names the page, where it is, then the product', () => {
    expect(pageTitle('Billing', 'Acme Pro')).toBe('Billing · Acme Pro · Meterline');
    expect(pageTitle('Sign in')).toBe('Sign in · Meterline');
    expect(pageTitle()).toBe('Meterline');
    expect(pageTitle('Usage', undefined, ' ', null)).toBe('Usage · Meterline');
  });
});

describe('each route names itself in the one <title>', () => {
  afterEach(() => {
    document.title = '';
  });

  async function expectTitle(title: string) {
    await waitFor(() => expect(document.title).toBe(title));
    // React's own <title> elements would sit beside the document's: there is one.
    expect(document.querySelectorAll('title')).toHaveLength(1);
  }

  it('the sign-in page', async () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, { profile: null });
    renderApp('/sign-in', queryClient);
    await screen.findByRole('button', { name: 'Sign in' });
    await expectTitle('Sign in · Meterline');
  });

  it("an organization's projects", async () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, {
      profile: recorded.profile.owner,
      organizations: recorded.organizations,
      organization: recorded.organization.acmePro,
      projects: recorded.projects,
    });
    renderApp('/org/acme-pro', queryClient);
    await screen.findByRole('heading', { level: 1, name: /Acme Pro/ });
    await expectTitle('Acme Pro · Meterline');
  });

  it('an unknown page, then a known one after navigating', async () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, { profile: null });
    const { router } = renderApp('/no/such/page', queryClient);
    await expectTitle('Page not found · Meterline');
    await router.navigate('/sign-in');
    await expectTitle('Sign in · Meterline');
  });
});
