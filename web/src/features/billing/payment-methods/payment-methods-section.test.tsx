import { organizationSchema, type Organization, type Profile } from '@meterline/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { recorded, roleIn } from '../../../../test/fixtures';
import { recordedBillingData } from '../../../../test/recorded-billing-data';
import { withRealApi } from '../../../../test/real-api';
import { createTestQueryClient } from '../../../../test/render-app';
import { AppProviders } from '../../../app/providers';
import { ApiError } from '../../../data/api-client';
import { deletePaymentMethod } from '../../../data/delete-payment-method-mutation';
import { getOrganization } from '../../../data/organization-query';
import { getPaymentMethods } from '../../../data/payment-methods-query';
import { PaymentMethodsSection } from './payment-methods-section';
import restrictedCo from '../../../../test/recorded/organization-restricted-co.json';

// The spec's texts, typed out independently of the implementation.
const ADDED = 'Successfully added new payment method';
const DECLINED = 'Your card was declined.';
const NO_WRITE = 'You need additional permissions to manage payment methods';

const ACME_PRO = recorded.organization.acmePro;

// Radix measures its popovers; jsdom has no layout.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

const transport = withRealApi();

function renderSection({
  organization = ACME_PRO,
  profile = recorded.profile.owner,
}: { organization?: Organization; profile?: Profile } = {}) {
  const queryClient = createTestQueryClient();
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <PaymentMethodsSection
        organization={organization}
        role={roleIn(profile, organization.slug)}
      />
    </AppProviders>,
  );
  const region = () => screen.getByRole('region', { name: 'Payment methods' });
  const cards = () => within(region()).getAllByRole('listitem');
  const card = (last4: string) =>
    cards().find((item) => item.textContent?.includes(last4)) as HTMLElement;
  return { ...view, user, queryClient, region, cards, card };
}

/** Types a card into the open dialog's simulator fields. */
async function typeCard(
  user: ReturnType<typeof userEvent.setup>,
  dialog: HTMLElement,
  number: string,
) {
  await user.type(within(dialog).getByLabelText('Card number'), number);
  await user.type(within(dialog).getByLabelText('Expiry'), '1230');
  await user.type(within(dialog).getByLabelText('CVC'), '123');
}

describe('Payment methods section', () => {
  it("lists acme-pro's cards with brand, last four, expiry and badges", async () => {
    await transport().signIn('owner@example.com');
    const { card, cards } = renderSection();
    expect(screen.getByRole('status')).toHaveTextContent('Loading payment methods');
    await screen.findByText('4242');
    expect(cards()).toHaveLength(2);

    const visa = card('4242');
    expect(visa).toHaveTextContent(/Visa/);
    expect(within(visa).getByText('Active')).toBeInTheDocument();
    expect(within(visa).queryByText('Expiring soon')).not.toBeInTheDocument();
    expect(visa).toHaveTextContent(/Expires \d{2}\/\d{4}/);

    const mastercard = card('4444');
    expect(mastercard).toHaveTextContent(/Mastercard/);
    expect(within(mastercard).getByText('Expiring soon')).toBeInTheDocument();
    expect(within(mastercard).queryByText('Active')).not.toBeInTheDocument();
    const now = new Date();
    const thisMonth = `${String(now.getUTCMonth() + 1).padStart(2, '0')}/${now.getUTCFullYear()}`;
    expect(mastercard).toHaveTextContent(`Expires ${thisMonth}`);
  });

  it("says restricted-co's default card declined its last charge, and acme-pro's cards did not", async () => {
    await transport().signIn('owner@example.com');
    const restricted = renderSection({ organization: organizationSchema.parse(restrictedCo) });
    const declining = await waitFor(() => restricted.cards()[0] as HTMLElement);
    expect(declining).toHaveTextContent(
      /Last charge declined on [A-Z][a-z]{2} \d{2}, \d{4}: Your card was declined\./,
    );
    restricted.unmount();

    const { card } = renderSection();
    await screen.findByText('4242');
    expect(card('4242')).not.toHaveTextContent('declined');
    expect(card('4444')).not.toHaveTextContent('declined');
  });

  it('says when the cards cannot be loaded', async () => {
    // No session: the API refuses the GET.
    renderSection();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to retrieve payment methods');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('shows the empty state for an organization without cards', async () => {
    await transport().signIn('owner@example.com');
    const { region } = renderSection({ organization: recorded.organization.acmeFree });
    expect(await within(region()).findByText('No payment methods yet')).toBeInTheDocument();
  });

  it('tells an organization that pays by invoice so, instead of promising a charge to a card', async () => {
    await transport().signIn('owner@example.com');
    const { region } = renderSection({ organization: await getOrganization('acme-enterprise') });
    expect(
      await within(region()).findByText(
        /^This organization pays by invoice: each invoice is emailed/,
      ),
    ).toBeInTheDocument();
    expect(region()).not.toHaveTextContent('charged to the default card');
  });

  it("says acme-pro's invoices are charged to the default card", async () => {
    await transport().signIn('owner@example.com');
    const { region } = renderSection();
    await within(region()).findByText('4242');
    expect(
      await within(region()).findByText(/^Invoices are charged to the default card/),
    ).toBeInTheDocument();
    expect(region()).not.toHaveTextContent('pays by invoice');
  });

  it('shows a developer the cards without a menu, and "Add new card" disabled with the reason', async () => {
    await transport().signIn('developer@example.com');
    const { region } = renderSection({ profile: recordedBillingData.profile.developer });
    await within(region()).findByText('4242');
    expect(within(region()).queryByRole('button', { name: /Manage card/ })).not.toBeInTheDocument();
    const add = within(region()).getByRole('button', { name: 'Add new card' });
    expect(add).toBeDisabled();
    expect(add.parentElement).toHaveAccessibleDescription(NO_WRITE);
  });

  it('keeps the default card: its Delete is disabled with the rule, and the API refuses it', async () => {
    await transport().signIn('owner@example.com');
    const { user, region } = renderSection();
    await within(region()).findByText('4242');
    await user.click(
      within(region()).getByRole('button', { name: 'Manage card ending with 4242' }),
    );
    const menu = await screen.findByRole('menu');
    const remove = within(menu).getByRole('menuitem', { name: /Delete/ });
    expect(remove).toHaveAttribute('aria-disabled', 'true');
    expect(remove).toHaveTextContent('The default payment method cannot be deleted');
    expect(within(menu).getByRole('menuitem', { name: /Default card/ })).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await user.keyboard('{Escape}');

    const { data, defaultPaymentMethodId } = await getPaymentMethods('acme-pro');
    const refused = await deletePaymentMethod('acme-pro', defaultPaymentMethodId ?? '').catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(409);
    expect((await getPaymentMethods('acme-pro')).data).toHaveLength(data.length);
  });

  it('marks a card as the backup from its menu, shows the badge, and removes the mark again', async () => {
    await transport().signIn('owner@example.com');
    const { user, region, card, cards } = renderSection();
    await within(region()).findByText('4444');
    expect(within(region()).queryByText('Backup')).not.toBeInTheDocument();

    // The default card cannot be the backup: its item says why.
    await user.click(
      within(region()).getByRole('button', { name: 'Manage card ending with 4242' }),
    );
    let menu = await screen.findByRole('menu');
    const refused = within(menu).getByRole('menuitem', { name: /Use as backup/ });
    expect(refused).toHaveAttribute('aria-disabled', 'true');
    expect(refused).toHaveTextContent('The default card cannot also be the backup card');
    await user.keyboard('{Escape}');

    await user.click(
      within(region()).getByRole('button', { name: 'Manage card ending with 4444' }),
    );
    menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: /Use as backup/ }));
    expect(
      await screen.findByText(/The card ending with 4444 is now the backup card/),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(card('4444')).getByText('Backup')).toBeInTheDocument());
    expect(card('4444')).toHaveTextContent('Charged if the default card is declined');
    expect(within(card('4242')).queryByText('Backup')).not.toBeInTheDocument();
    // The default first, the backup next.
    expect(
      cards().map((item) => (item.textContent?.includes('4444') ? 'backup' : 'other')),
    ).toEqual(['other', 'backup']);
    expect(
      (await getPaymentMethods('acme-pro')).data.find((method) => method.card.last4 === '4444')
        ?.is_backup,
    ).toBe(true);

    await user.click(
      within(region()).getByRole('button', { name: 'Manage card ending with 4444' }),
    );
    menu = await screen.findByRole('menu');
    await user.click(within(menu).getByRole('menuitem', { name: /Remove backup/ }));
    expect(
      await screen.findByText('The card ending with 4444 is no longer the backup card'),
    ).toBeInTheDocument();
    await waitFor(() => expect(within(region()).queryByText('Backup')).not.toBeInTheDocument());
    expect(
      transport()
        .writes()
        .map(({ method, path }) => `${method} ${path}`),
    ).toEqual([
      'PUT /platform/organizations/acme-pro/payments/backup',
      'DELETE /platform/organizations/acme-pro/payments/backup',
    ]);
  });

  describe('adding a card', () => {
    beforeEach(async () => {
      await transport().signIn('owner@example.com');
    });

    it('opens a dialog with the card fields, both options checked, focus on the card number', async () => {
      const { user, region } = renderSection();
      await within(region()).findByRole('list', { name: 'Cards' });
      await user.click(within(region()).getByRole('button', { name: 'Add new card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add new card' });
      const number = await within(dialog).findByLabelText('Card number');
      await waitFor(() => expect(number).toHaveFocus());
      expect(within(dialog).getByLabelText('Expiry')).toHaveAttribute('placeholder', 'MM / YY');
      expect(within(dialog).getByLabelText('CVC')).toBeInTheDocument();
      expect(
        within(dialog).getByText(
          'Please ensure CVC and postal codes match what’s on file for your card.',
        ),
      ).toBeInTheDocument();
      expect(
        within(dialog).getByRole('checkbox', { name: 'Set as default payment method' }),
      ).toBeChecked();
      expect(
        within(dialog).getByRole('checkbox', { name: 'Update billing address and tax ID' }),
      ).toBeChecked();
      // Prefilled from GET /customer and /tax-ids.
      expect(await within(dialog).findByRole('textbox', { name: 'Name' })).toHaveValue(
        'Acme Pro Inc.',
      );
      expect(
        within(dialog).getByRole('switch', { name: 'I’m purchasing as a business' }),
      ).toBeChecked();
      expect(within(dialog).getByRole('textbox', { name: 'Tax ID' })).toHaveValue('IE9826471FA');

      // Nothing is sent for an incomplete card.
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(
        await within(dialog).findByText('Your card number is incomplete.'),
      ).toBeInTheDocument();
      expect(within(dialog).getByLabelText('Card number')).toHaveFocus();
      expect(transport().writes()).toEqual([]);
    });

    it('adds 4242 4242 4242 4242, makes it the default and lists it; the address is unchanged', async () => {
      const { user, region, cards } = renderSection();
      await within(region()).findByRole('list', { name: 'Cards' });
      const before = cards().length;
      await user.click(within(region()).getByRole('button', { name: 'Add new card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add new card' });
      await within(dialog).findByRole('textbox', { name: 'Name' });
      await typeCard(user, dialog, '4242424242424242');
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));

      expect(await screen.findByText(ADDED, {}, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(cards()).toHaveLength(before + 1));
      expect(
        transport()
          .writes()
          .map(({ method, path }) => `${method} ${path}`),
      ).toEqual([
        'POST /platform/captcha',
        'POST /platform/organizations/acme-pro/payments/setup-intent',
        'POST /platform/simulator/setup-intents/confirm',
        'POST /platform/organizations/acme-pro/payments/attach',
        'PUT /platform/organizations/acme-pro/payments/default',
      ]);
      const { data, defaultPaymentMethodId } = await getPaymentMethods('acme-pro');
      expect(data).toHaveLength(before + 1);
      const added = data.find((method) => method.id === defaultPaymentMethodId);
      expect(added?.card.last4).toBe('4242');
      // The new default carries the "Active" badge, the previous default no longer does.
      await waitFor(() => expect(within(region()).getAllByText('Active')).toHaveLength(1));
    });

    it('declines 4000 0000 0000 0002 with the provider message and saves nothing', async () => {
      const { user, region, cards } = renderSection();
      await within(region()).findByRole('list', { name: 'Cards' });
      const before = (await getPaymentMethods('acme-pro')).data.length;
      await user.click(within(region()).getByRole('button', { name: 'Add new card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add new card' });
      await within(dialog).findByRole('textbox', { name: 'Name' });
      await typeCard(user, dialog, '4000000000000002');
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));

      const alert = await within(dialog).findByRole('alert', {}, { timeout: 10_000 });
      expect(alert).toHaveTextContent(DECLINED);
      expect(screen.getByRole('dialog', { name: 'Add new card' })).toBeInTheDocument();
      const paths = transport()
        .writes()
        .map(({ path }) => path);
      expect(paths).not.toContain('/platform/organizations/acme-pro/payments/attach');
      expect(paths).not.toContain('/platform/organizations/acme-pro/payments/default');
      expect((await getPaymentMethods('acme-pro')).data).toHaveLength(before);
      await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(cards()).toHaveLength(before);
    });

    it('asks for 3-D Secure with 4000 0025 0000 3155 and saves the card once completed', async () => {
      const { user, region } = renderSection();
      await within(region()).findByRole('list', { name: 'Cards' });
      const before = (await getPaymentMethods('acme-pro')).data.length;
      await user.click(within(region()).getByRole('button', { name: 'Add new card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add new card' });
      await within(dialog).findByRole('textbox', { name: 'Name' });
      await typeCard(user, dialog, '4000002500003155');
      await user.click(
        within(dialog).getByRole('checkbox', { name: 'Set as default payment method' }),
      );
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));

      const challenge = await screen.findByRole(
        'dialog',
        { name: "Confirm it's you" },
        { timeout: 10_000 },
      );
      await user.click(within(challenge).getByRole('button', { name: 'Complete authentication' }));
      expect(await screen.findByText(ADDED, {}, { timeout: 10_000 })).toBeInTheDocument();
      const after = await getPaymentMethods('acme-pro');
      expect(after.data).toHaveLength(before + 1);
      expect(after.data.find((method) => method.card.last4 === '3155')?.is_default).toBe(false);
    });

    it('limits-co, with no address on file: saves the card without asking for one, and checks a name that was typed', async () => {
      const { user, region } = renderSection({ organization: recorded.organization.limitsCo });
      await user.click(await within(region()).findByRole('button', { name: 'Add new card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add new card' });
      const name = await within(dialog).findByRole('textbox', { name: 'Name' });
      expect(name).toHaveValue('');
      expect(
        within(dialog).getByRole('checkbox', { name: 'Update billing address and tax ID' }),
      ).toBeChecked();
      await typeCard(user, dialog, '4242424242424242');
      // A name that was typed is a change: it is checked by the address form's rules.
      await user.type(name, 'A');
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(
        await within(dialog).findByText('Name must be at least 3 letters long'),
      ).toBeInTheDocument();
      expect(transport().writes()).toEqual([]);
      // Left empty, as loaded: no change, nothing to check (spec §4, "if changed").
      await user.clear(name);
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));
      expect(await screen.findByText(ADDED, {}, { timeout: 10_000 })).toBeInTheDocument();
      const writes = transport()
        .writes()
        .map(({ method, path }) => `${method} ${path}`);
      expect(writes).toContain('POST /platform/organizations/limits-co/payments/attach');
      expect(writes.filter((write) => /\/customer|\/tax-ids/.test(write))).toEqual([]);
    });

    it('applies a changed address, and only the address', async () => {
      const { user, region } = renderSection();
      await within(region()).findByRole('list', { name: 'Cards' });
      await user.click(within(region()).getByRole('button', { name: 'Add new card' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add new card' });
      const city = await within(dialog).findByRole('textbox', { name: 'City' });
      await user.clear(city);
      await user.type(city, 'Cork');
      await typeCard(user, dialog, '4242424242424242');
      await user.click(within(dialog).getByRole('button', { name: 'Save card' }));

      expect(await screen.findByText(ADDED, {}, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() =>
        expect(
          transport()
            .writes()
            .map(({ method, path }) => `${method} ${path}`),
        ).toContain('PUT /platform/organizations/acme-pro/customer'),
      );
      const writes = transport()
        .writes()
        .map(({ method, path }) => `${method} ${path}`);
      expect(writes.filter((write) => write.includes('/tax-ids'))).toEqual([]);
    });
  });
});
