import type { Organization, Profile } from '@meterline/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { recorded, roleIn } from '../../../../test/fixtures';
import { recordedBillingData } from '../../../../test/recorded-billing-data';
import { withRealApi } from '../../../../test/real-api';
import { createTestQueryClient } from '../../../../test/render-app';
import { AppProviders } from '../../../app/providers';
import { customerKeys, taxIdKeys } from '../../../data/keys';
import { getCustomerProfile } from '../../../data/customer-query';
import { getTaxId } from '../../../data/tax-id-query';
import { AddressSection } from './address-section';

// The spec's texts, typed out independently of the implementation.
const NAME_MESSAGE = 'Name must be at least 3 letters long';
const NO_WRITE = "You need additional permissions to manage this organization's billing address";
const SAVED = 'Successfully updated billing data';

const ACME_PRO = recorded.organization.acmePro;

const transport = withRealApi();

/**
 * The section as the billing page renders it, the cache holding the recorded GET /customer and
 * GET /tax-ids answers (unless `seeded` is false, when the section loads them from the API).
 */
function renderSection({
  organization = ACME_PRO,
  profile = recorded.profile.owner,
  seeded = true,
}: { organization?: Organization; profile?: Profile; seeded?: boolean } = {}) {
  const queryClient = createTestQueryClient();
  if (seeded) {
    queryClient.setQueryData(
      customerKeys.detail(organization.slug),
      recordedBillingData.customer.acmePro,
    );
    queryClient.setQueryData(
      taxIdKeys.detail(organization.slug),
      recordedBillingData.taxId.acmePro,
    );
  }
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <AddressSection organization={organization} role={roleIn(profile, organization.slug)} />
    </AppProviders>,
  );
  const region = () => screen.getByRole('region', { name: 'Billing address & tax ID' });
  return { ...view, user, queryClient, region };
}

const field = (name: string) => screen.getByLabelText(name, { selector: 'input, select' });
const input = (name: string) => screen.getByRole('textbox', { name });
const select = (name: string) => screen.getByRole('combobox', { name });
const button = (name: string) => screen.getByRole('button', { name });

function optionNames(selectElement: HTMLElement): string[] {
  return within(selectElement)
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

describe('Billing Address & Tax ID section', () => {
  it('shows the saved name, address and tax ID', () => {
    renderSection();
    expect(input('Name')).toHaveValue('Acme Pro Inc.');
    expect(input('Address line 1')).toHaveValue('1 Grand Canal Square');
    expect(input('Address line 2')).toHaveValue('Grand Canal Harbour');
    expect(input('City')).toHaveValue('Dublin');
    expect(input('State')).toHaveValue('Co. Dublin');
    expect(input('Postal code')).toHaveValue('D02 P820');
    expect(select('Country')).toHaveValue('IE');
    expect(within(select('Country')).getByRole('option', { selected: true })).toHaveTextContent(
      'Ireland',
    );
    expect(select('Tax ID type')).toHaveValue('IE VAT');
    expect(input('Tax ID')).toHaveValue('IE9826471FA');
  });

  it('loads the profile and tax ID from the API behind a loading skeleton', async () => {
    await transport().signIn('owner@example.com');
    renderSection({ seeded: false });
    expect(screen.getByRole('status')).toHaveTextContent('Loading billing address and tax ID');
    expect(await screen.findByRole('textbox', { name: 'Name' })).toHaveValue('Acme Pro Inc.');
    expect(transport().requests.map((request) => request.path)).toEqual(
      expect.arrayContaining([
        '/platform/organizations/acme-pro/customer',
        '/platform/organizations/acme-pro/tax-ids',
      ]),
    );
  });

  it('says when the profile cannot be loaded', async () => {
    // No session: the API refuses the GET.
    renderSection({ seeded: false });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to retrieve organization customer profile');
    expect(alert).toHaveTextContent('You need to sign in');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeEnabled();
  });

  it('enables Save and Cancel only while the form differs from what was saved', async () => {
    const { user } = renderSection();
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeDisabled();

    await user.type(input('City'), 'x');
    expect(button('Save')).toBeEnabled();
    expect(button('Cancel')).toBeEnabled();

    await user.type(input('City'), '{Backspace}');
    expect(button('Save')).toBeDisabled();

    await user.clear(input('Postal code'));
    await user.type(input('Postal code'), 'D01 X2Y3');
    await user.click(button('Cancel'));
    expect(input('Postal code')).toHaveValue('D02 P820');
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeDisabled();
  });

  it('refuses a two-letter name in the form and sends nothing', async () => {
    await transport().signIn('owner@example.com');
    const { user } = renderSection();
    await user.clear(input('Name'));
    await user.type(input('Name'), 'Ab');
    await user.click(button('Save'));

    expect(await screen.findByText(NAME_MESSAGE)).toBeInTheDocument();
    expect(input('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(input('Name')).toHaveAccessibleDescription(expect.stringContaining(NAME_MESSAGE));
    expect(input('Name')).toHaveFocus();
    expect(transport().writes()).toEqual([]);
  });

  it('moves focus to the first invalid field and links every error to its field', async () => {
    const { user } = renderSection();
    await user.clear(input('Address line 1'));
    await user.type(input('Address line 1'), 'ab');
    await user.clear(input('City'));
    await user.click(button('Save'));

    // A line typed too short says what is wrong with it.
    expect(
      await screen.findByText('Address line 1 must be at least 3 characters'),
    ).toBeInTheDocument();
    expect(input('Address line 1')).toHaveFocus();
    expect(input('City')).toHaveAccessibleDescription('City is required');
    expect(input('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('offers only the tax ID kinds of the chosen country, with their format as placeholder', async () => {
    const { user } = renderSection();
    expect(optionNames(select('Tax ID type'))).toEqual(['None', 'IE VAT']);

    await user.selectOptions(select('Country'), 'Germany');
    expect(optionNames(select('Tax ID type'))).toEqual(['None', 'DE VAT', 'DE STN']);
    // The Irish kind is not offered in Germany any more.
    expect(select('Tax ID type')).toHaveValue('');
    expect(input('Tax ID')).toHaveValue('');
    expect(input('Tax ID')).toBeDisabled();

    await user.selectOptions(select('Tax ID type'), 'DE VAT');
    expect(input('Tax ID')).toHaveAttribute('placeholder', 'DE123456789');
    await user.selectOptions(select('Tax ID type'), 'DE STN');
    expect(input('Tax ID')).toHaveAttribute('placeholder', '1234567890');

    await user.selectOptions(select('Country'), 'Antarctica');
    expect(optionNames(select('Tax ID type'))).toEqual(['None']);
  });

  it('resets the value when another kind is chosen', async () => {
    const { user } = renderSection();
    await user.selectOptions(select('Country'), 'United Kingdom');
    await user.selectOptions(select('Tax ID type'), 'GB VAT');
    await user.type(input('Tax ID'), 'GB123456789');
    expect(input('Tax ID')).toHaveValue('GB123456789');

    await user.selectOptions(select('Tax ID type'), 'XI VAT');
    expect(input('Tax ID')).toHaveValue('');
    expect(input('Tax ID')).toHaveAttribute('placeholder', 'XI123456789');
  });

  it('empties the tax ID type and value with the clear button', async () => {
    const { user } = renderSection();
    await user.click(button('Clear tax ID'));
    expect(select('Tax ID type')).toHaveValue('');
    expect(within(select('Tax ID type')).getByRole('option', { selected: true })).toHaveTextContent(
      'None',
    );
    expect(input('Tax ID')).toHaveValue('');
    expect(input('Tax ID')).toBeDisabled();
    expect(select('Tax ID type')).toHaveFocus();
    expect(screen.queryByRole('button', { name: 'Clear tax ID' })).not.toBeInTheDocument();
    expect(button('Save')).toBeEnabled();
  });

  it('asks for a value once a kind is chosen', async () => {
    const { user } = renderSection();
    await user.click(button('Clear tax ID'));
    await user.selectOptions(select('Tax ID type'), 'IE VAT');
    await user.click(button('Save'));
    expect(await screen.findByText('Tax ID needs to be set.')).toBeInTheDocument();
    expect(input('Tax ID')).toHaveFocus();
  });

  it('shows a developer the form disabled, with the reason', () => {
    const { region } = renderSection({ profile: recordedBillingData.profile.developer });
    expect(within(region()).getByText(NO_WRITE)).toBeInTheDocument();
    for (const name of ['Name', 'Address line 1', 'Address line 2', 'City', 'State']) {
      expect(input(name)).toBeDisabled();
    }
    expect(input('Postal code')).toBeDisabled();
    expect(field('Country')).toBeDisabled();
    expect(field('Tax ID type')).toBeDisabled();
    expect(input('Tax ID')).toBeDisabled();
    expect(input('Name')).toHaveValue('Acme Pro Inc.');
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Clear tax ID' })).not.toBeInTheDocument();
  });

  it('shows a read-only member the read notice and asks the API for nothing', () => {
    renderSection({ profile: recorded.profile.readonly, seeded: false });
    expect(
      screen.getByText(
        "You need additional permissions to view this organization's billing address",
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(transport().requests).toEqual([]);
  });

  describe('saving to the API', () => {
    beforeEach(async () => {
      await transport().signIn('owner@example.com');
    });

    it('saves the profile first, then the tax ID with its VAT prefix added', async () => {
      const { user, region } = renderSection();
      await user.clear(input('Name'));
      await user.type(input('Name'), 'Acme Holdings Ltd');
      await user.clear(input('Address line 1'));
      await user.type(input('Address line 1'), '2 Sir John Rogerson Quay');
      await user.clear(input('Address line 2'));
      await user.clear(input('Tax ID'));
      await user.type(input('Tax ID'), '3456789XY');
      await user.click(button('Save'));

      expect(await screen.findByText(SAVED)).toBeInTheDocument();
      expect(
        transport()
          .writes()
          .map(({ method, path, body }) => ({ method, path, body })),
      ).toEqual([
        {
          method: 'PUT',
          path: '/platform/organizations/acme-pro/customer',
          body: {
            billing_name: 'Acme Holdings Ltd',
            address: {
              line1: '2 Sir John Rogerson Quay',
              city: 'Dublin',
              state: 'Co. Dublin',
              postal_code: 'D02 P820',
              country: 'IE',
            },
          },
        },
        {
          method: 'PUT',
          path: '/platform/organizations/acme-pro/tax-ids',
          body: { type: 'eu_vat', value: 'IE3456789XY', country: 'IE' },
        },
      ]);

      // What the server now has, asked through the app's own client.
      const profile = await getCustomerProfile('acme-pro');
      expect(profile.billing_name).toBe('Acme Holdings Ltd');
      expect(profile.address).toEqual({
        line1: '2 Sir John Rogerson Quay',
        city: 'Dublin',
        state: 'Co. Dublin',
        postal_code: 'D02 P820',
        country: 'IE',
      });
      expect(await getTaxId('acme-pro')).toEqual({
        type: 'eu_vat',
        value: 'IE3456789XY',
        country: 'IE',
      });

      // The form now shows what was stored, prefix included, and has nothing left to save.
      await waitFor(() => expect(input('Tax ID')).toHaveValue('IE3456789XY'));
      expect(button('Save')).toBeDisabled();
      expect(within(region()).queryByRole('alert')).not.toBeInTheDocument();
    });

    it('deletes the tax ID after the clear button, with Version 2', async () => {
      const { user } = renderSection();
      await user.click(button('Clear tax ID'));
      await user.click(button('Save'));

      expect(await screen.findByText(SAVED)).toBeInTheDocument();
      const writes = transport().writes();
      expect(writes.map(({ method, path }) => `${method} ${path}`)).toEqual([
        'DELETE /platform/organizations/acme-pro/tax-ids',
      ]);
      expect(writes[0]?.headers.version).toBe('2');
      expect(await getTaxId('acme-pro')).toBeNull();
      await waitFor(() => expect(button('Save')).toBeDisabled());
    });

    it('names the step that failed: the profile', async () => {
      // The screen believes the user may write; the API, seeing a developer, refuses.
      await transport().signIn('developer@example.com');
      const { user } = renderSection();
      await user.type(input('City'), ' City');
      await user.click(button('Save'));
      expect(
        await screen.findByText(/^Failed to update customer profile: .*billing write on customer/),
      ).toBeInTheDocument();
      expect(transport().writes()).toHaveLength(1);
      // Nothing was saved: the change stays, ready to try again.
      expect(input('City')).toHaveValue('Dublin City');
      expect(button('Save')).toBeEnabled();
    });

    it('names the step that failed: the tax ID', async () => {
      await transport().signIn('developer@example.com');
      const { user } = renderSection();
      await user.click(button('Clear tax ID'));
      await user.click(button('Save'));
      expect(await screen.findByText(/^Failed to update tax id: /)).toBeInTheDocument();
    });
  });
});
