import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { recorded } from '../../../test/fixtures';
import { withRealApi } from '../../../test/real-api';
import { createTestQueryClient } from '../../../test/render-app';
import { AppProviders } from '../../app/providers';
import { UpgradeDialog } from './upgrade-dialog';

const transport = withRealApi();

// acme-free has no card: the dialog opens on the card form, and the price is beside it from the
// start, priced without a card.
describe('the upgrade dialog of an organization with no card', () => {
  it('shows the charge today, the monthly estimate and what Pro adds beside the card form', async () => {
    await transport().signIn('owner@example.com');
    render(
      <AppProviders queryClient={createTestQueryClient()}>
        <UpgradeDialog
          organization={recorded.organization.acmeFree}
          role="owner"
          target="pro"
          onClose={vi.fn()}
          onUpgraded={vi.fn()}
        />
      </AppProviders>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Pro' });
    expect(await within(dialog).findByLabelText('Card number')).toBeInTheDocument();
    const summary = within(dialog).getByRole('complementary', {
      name: 'Upgrade to Pro: what it costs and adds',
    });
    const charge = await within(summary).findByRole('table', { name: 'Charge today' });
    const row = within(charge).getByRole('rowheader', { name: 'Charge today' }).closest('tr');
    // Pro's first month, nothing to give back: $25.00 (pricing.md), typed out.
    expect(row).toHaveTextContent('$25.00');
    expect(
      within(summary).getByRole('heading', { name: 'Monthly invoice estimate' }),
    ).toBeVisible();
    expect(
      within(summary).getByRole('heading', { name: 'What the Pro plan adds' }),
    ).toBeInTheDocument();
    // Nothing was written to price it: no card, no change.
    expect(
      transport()
        .writes()
        .map(({ method, path }) => `${method} ${path}`),
    ).toEqual(['POST /platform/organizations/acme-free/billing/subscription/preview']);
  });
});
