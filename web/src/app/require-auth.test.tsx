import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createTestQueryClient, renderApp, seedCache } from '../../test/render-app';
import { safeReturnTo } from '../lib/return-to';

describe('signed out', () => {
  it('sends the user to /sign-in with the page to return to', async () => {
    const queryClient = createTestQueryClient();
    seedCache(queryClient, { profile: null });
    const { router } = renderApp('/org/acme-pro/billing?panel=costControl', queryClient);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.location().pathname).toBe('/sign-in');
    expect(new URLSearchParams(router.location().search).get('returnTo')).toBe(
      '/org/acme-pro/billing?panel=costControl',
    );
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
  });

  it('follows only same-app return addresses', () => {
    expect(safeReturnTo('/org/acme-pro/billing')).toBe('/org/acme-pro/billing');
    expect(safeReturnTo('https://evil.example')).toBeNull();
    expect(safeReturnTo('//evil.example')).toBeNull();
    expect(safeReturnTo('/\\evil.example')).toBeNull();
    expect(safeReturnTo('/sign-in?returnTo=/')).toBeNull();
    expect(safeReturnTo(null)).toBeNull();
  });
});
