import type { Organization, Profile } from '@meterline/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { recorded, roleIn } from '../../../test/fixtures';
import { recordedBillingData } from '../../../test/recorded-billing-data';
import { withRealApi } from '../../../test/real-api';
import { createTestQueryClient } from '../../../test/render-app';
import { AppProviders } from '../../app/providers';
import { getSubscription } from '../../data/subscription-query';
import { SpendCapPanel } from './spend-cap-panel';

// The spec's texts, typed out independently of the implementation.
const ENABLED = 'Successfully enabled spend cap';
const DISABLED = 'Successfully disabled spend cap';
const NO_PERMISSION = 'You do not have permission to update spend cap';

const transport = withRealApi();

function renderPanel(organization: Organization, profile: Profile = recorded.profile.owner) {
  const onOpenChange = vi.fn();
  const onUpgradePlan = vi.fn();
  const user = userEvent.setup();
  render(
    <AppProviders queryClient={createTestQueryClient()}>
      <SpendCapPanel
        organization={organization}
        role={roleIn(profile, organization.slug)}
        projectUpdatesDisabled={false}
        open
        onOpenChange={onOpenChange}
        onUpgradePlan={onUpgradePlan}
      />
    </AppProviders>,
  );
  return { user, onOpenChange, onUpgradePlan };
}

async function panel() {
  const dialog = await screen.findByRole('dialog', { name: 'Spend cap' });
  await within(dialog).findByRole('radiogroup', { name: 'Choose the spend cap' });
  return dialog;
}

describe('Spend cap panel', () => {
  it('shows acme-pro with the cap on, what it covers, and Confirm only once the draft differs', async () => {
    await transport().signIn('owner@example.com');
    renderPanel(recorded.organization.acmePro);
    const dialog = await panel();
    expect(within(dialog).getByRole('radio', { name: /Spend cap on/ })).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    const rates = within(dialog).getByRole('table');
    expect(
      within(rates).getByRole('rowheader', { name: 'Egress' }).closest('tr'),
    ).toHaveTextContent('$0.09 per GB');
    for (const resource of ['Database', 'Auth', 'Storage', 'Realtime', 'Edge Functions']) {
      expect(within(rates).getByRole('rowheader', { name: resource })).toBeInTheDocument();
    }
    expect(dialog).toHaveTextContent(
      'Turning it on issues an invoice at once for the usage beyond',
    );
  });

  it('turns acme-pro’s cap off through the real API: tier_payg, the toast, the subscription', async () => {
    await transport().signIn('owner@example.com');
    const { user, onOpenChange } = renderPanel(recorded.organization.acmePro);
    const dialog = await panel();
    await user.click(within(dialog).getByRole('radio', { name: /Spend cap off/ }));
    // Confirm waits for the price: nothing is charged now, said before the click.
    expect(await within(dialog).findByRole('region', { name: 'Charged now' })).toHaveTextContent(
      'Nothing is charged now',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(DISABLED, {}, { timeout: 8000 })).toBeInTheDocument();
    expect(
      transport()
        .writes()
        .filter((request) => request.method === 'PUT')
        .map((request) => request.body),
    ).toEqual([{ tier: 'tier_payg', proration_date: expect.any(Number) as number }]);
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect((await getSubscription('acme-pro')).usage_billing_enabled).toBe(true);
  });

  it('turns it back on: tier_pro and its toast', async () => {
    await transport().signIn('owner@example.com');
    const { user } = renderPanel(recorded.organization.acmePro);
    const dialog = await panel();
    expect(within(dialog).getByRole('radio', { name: /Spend cap off/ })).toBeChecked();
    await user.click(within(dialog).getByRole('radio', { name: /Spend cap on/ }));
    await within(dialog).findByRole('region', { name: 'Charged now' });
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(ENABLED, {}, { timeout: 8000 })).toBeInTheDocument();
    expect((await getSubscription('acme-pro')).usage_billing_enabled).toBe(false);
  });

  it('shows payg-co what turning the cap on charges now and to which card, and sends that quote back', async () => {
    await transport().signIn('owner@example.com');
    const { user } = renderPanel(recorded.organization.paygCo);
    const dialog = await panel();
    await user.click(within(dialog).getByRole('radio', { name: /Spend cap on/ }));
    const charge = await within(dialog).findByRole('region', { name: 'Charged now' });
    const shown = within(charge).getByTestId('spend-cap-charge-today').textContent ?? '';
    expect(shown).toMatch(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
    expect(shown).not.toBe('$0.00');
    expect(charge).toHaveTextContent('Egress');
    expect(charge).toHaveTextContent(/Visa ending 4242/);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(ENABLED, {}, { timeout: 8000 })).toBeInTheDocument();
    const [put] = transport()
      .writes()
      .filter((request) => request.method === 'PUT');
    const [previewCall] = transport()
      .writes()
      .filter(
        (request) => request.method === 'POST' && request.path.endsWith('/spend-cap/preview'),
      );
    expect(previewCall?.body).toEqual({ spend_cap: true });
    expect(put?.body).toMatchObject({
      tier: 'tier_pro',
      proration_date: expect.any(Number) as number,
    });
  });

  it('keeps Confirm disabled for a developer, with the spec’s reason', async () => {
    await transport().signIn('developer@example.com');
    const { user } = renderPanel(
      recorded.organization.acmePro,
      recordedBillingData.profile.developer,
    );
    const dialog = await panel();
    // The reason at the top, without hovering, and the choice not offered.
    expect(await within(dialog).findByText(NO_PERMISSION, { selector: 'p' })).toBeVisible();
    expect(within(dialog).getByRole('radio', { name: /Spend cap off/ })).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: /Spend cap off/ }));
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeDisabled();
    expect(transport().writes()).toEqual([]);
  });

  it('explains the Free plan and offers the upgrade instead', async () => {
    await transport().signIn('owner@example.com');
    const { user, onUpgradePlan } = renderPanel(recorded.organization.acmeFree);
    const dialog = await screen.findByRole('dialog', { name: 'Spend cap' });
    await within(dialog).findByText('The Free plan always has the spend cap on');
    expect(within(dialog).getByRole('radio', { name: /Spend cap off/ })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Upgrade plan' }));
    expect(onUpgradePlan).toHaveBeenCalled();
  });
});
