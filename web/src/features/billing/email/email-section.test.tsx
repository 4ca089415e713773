import type { Organization, Profile, Role } from '@meterline/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { recorded, roleIn } from '../../../../test/fixtures';
import { recordedBillingData } from '../../../../test/recorded-billing-data';
import { withRealApi } from '../../../../test/real-api';
import { createTestQueryClient } from '../../../../test/render-app';
import { AppProviders } from '../../../app/providers';
import { organizationKeys } from '../../../data/keys';
import { getOrganization, useOrganizationQuery } from '../../../data/organization-query';
import { EmailSection } from './email-section';

// The spec's texts, typed out independently of the implementation.
const BILLING_EMAIL_MESSAGE = 'Please provide a valid email address';
const NO_UPDATE = 'You need additional permissions to update billing emails';

const ACME_PRO = recorded.organization.acmePro;

const transport = withRealApi();

/** The section fed by the organization detail query, as the billing page's layout feeds it. */
function Section({ slug, role }: { slug: string; role: Role | null }) {
  const organization = useOrganizationQuery(slug).data;
  return organization ? <EmailSection organization={organization} role={role} /> : null;
}

function renderSection({
  organization = ACME_PRO,
  profile = recorded.profile.owner,
}: { organization?: Organization; profile?: Profile } = {}) {
  const queryClient = createTestQueryClient();
  queryClient.setQueryData(organizationKeys.detail(organization.slug), organization);
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Section slug={organization.slug} role={roleIn(profile, organization.slug)} />
    </AppProviders>,
  );
  return { ...view, user, queryClient };
}

const billingEmail = () => screen.getByRole('textbox', { name: 'Billing email' });
const additional = () => screen.getByRole('textbox', { name: 'Additional emails' });
const button = (name: string) => screen.getByRole('button', { name });

/** The recipients shown as tags, by their remove buttons. */
function tags(): string[] {
  return screen
    .queryAllByRole('button', { name: /^Remove / })
    .map((remove) => (remove.getAttribute('aria-label') ?? '').replace(/^Remove /, ''));
}

describe('Email Recipient section', () => {
  it('shows the billing email and the additional recipients as removable tags', () => {
    renderSection();
    expect(screen.getByRole('region', { name: 'Email recipients' })).toBeInTheDocument();
    expect(billingEmail()).toHaveValue('billing@acme.example.com');
    expect(tags()).toEqual(['finance@acme.example.com', 'cto@acme.example.com']);
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeDisabled();
  });

  it('adds tags with Enter, comma, Tab and leaving the field; removes them by Backspace and button', async () => {
    const { user } = renderSection();
    await user.click(additional());
    await user.keyboard('a@acme.example.com{Enter}');
    await user.keyboard('b@acme.example.com,');
    await user.keyboard('c@acme.example.com');
    await user.tab();
    expect(tags()).toEqual([
      'finance@acme.example.com',
      'cto@acme.example.com',
      'a@acme.example.com',
      'b@acme.example.com',
      'c@acme.example.com',
    ]);
    // Tab added the tag and moved on, to the Cancel button (now enabled).
    expect(button('Cancel')).toHaveFocus();

    await user.click(additional());
    await user.keyboard('d@acme.example.com');
    await user.click(billingEmail());
    expect(tags()).toContain('d@acme.example.com');

    await user.click(additional());
    await user.keyboard('{Backspace}');
    expect(tags()).not.toContain('d@acme.example.com');

    await user.click(button('Remove finance@acme.example.com'));
    expect(tags()).toEqual([
      'cto@acme.example.com',
      'a@acme.example.com',
      'b@acme.example.com',
      'c@acme.example.com',
    ]);
    // The same address twice is one recipient.
    await user.type(additional(), 'cto@acme.example.com{Enter}');
    expect(tags().filter((tag) => tag === 'cto@acme.example.com')).toHaveLength(1);
  });

  it('says which additional email is not valid, and sends nothing', async () => {
    await transport().signIn('owner@example.com');
    const { user } = renderSection();
    await user.type(additional(), 'bad{Enter}');

    const message = '"bad" is not a valid email address';
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(additional()).toHaveAttribute('aria-invalid', 'true');
    expect(additional()).toHaveAccessibleDescription(expect.stringContaining(message));

    await user.click(button('Save'));
    expect(additional()).toHaveFocus();
    expect(transport().writes()).toEqual([]);

    // Removing it clears the error.
    await user.click(button('Remove bad'));
    await waitFor(() => expect(screen.queryByText(message)).not.toBeInTheDocument());
    expect(additional()).not.toHaveAttribute('aria-invalid');
  });

  it('needs a valid billing email', async () => {
    const { user } = renderSection();
    await user.clear(billingEmail());
    await user.type(billingEmail(), 'billing-at-acme');
    await user.click(button('Save'));
    expect(await screen.findByText(BILLING_EMAIL_MESSAGE)).toBeInTheDocument();
    expect(billingEmail()).toHaveFocus();
    expect(billingEmail()).toHaveAccessibleDescription(
      expect.stringContaining(BILLING_EMAIL_MESSAGE),
    );
  });

  it('enables Save and Cancel only while changed; Cancel brings the saved values back', async () => {
    const { user } = renderSection();
    await user.type(additional(), 'new@acme.example.com{Enter}');
    expect(button('Save')).toBeEnabled();
    await user.click(button('Remove new@acme.example.com'));
    expect(button('Save')).toBeDisabled();

    await user.type(billingEmail(), 'x');
    expect(button('Cancel')).toBeEnabled();
    await user.click(button('Cancel'));
    expect(billingEmail()).toHaveValue('billing@acme.example.com');
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeDisabled();
  });

  it('shows a developer the fields disabled, with the reason', () => {
    renderSection({ profile: recordedBillingData.profile.developer });
    expect(screen.getByText(NO_UPDATE)).toBeInTheDocument();
    expect(billingEmail()).toBeDisabled();
    expect(additional()).toBeDisabled();
    expect(tags()).toEqual([]);
    expect(screen.getByText('finance@acme.example.com')).toBeInTheDocument();
    expect(button('Save')).toBeDisabled();
    expect(button('Cancel')).toBeDisabled();
  });

  it('shows a read-only member the recipients, without changing them', () => {
    renderSection({ profile: recorded.profile.readonly });
    expect(screen.getByText(NO_UPDATE)).toBeInTheDocument();
    expect(billingEmail()).toHaveValue('billing@acme.example.com');
    expect(billingEmail()).toBeDisabled();
  });

  describe('saving to the API', () => {
    beforeEach(async () => {
      await transport().signIn('owner@example.com');
    });

    it('sends name, billing email and recipients, and refreshes the organization', async () => {
      const { user, queryClient } = renderSection();
      await user.clear(billingEmail());
      await user.type(billingEmail(), 'accounts@acme.example.com');
      await user.type(additional(), 'ap@acme.example.com{Enter}');
      await user.click(button('Remove cto@acme.example.com'));
      await user.click(button('Save'));

      expect(await screen.findByText('Successfully updated billing emails')).toBeInTheDocument();
      expect(
        transport()
          .writes()
          .map(({ method, path, body }) => ({ method, path, body })),
      ).toEqual([
        {
          method: 'PATCH',
          path: '/platform/organizations/acme-pro',
          body: {
            name: 'Acme Pro',
            billing_email: 'accounts@acme.example.com',
            additional_billing_emails: ['finance@acme.example.com', 'ap@acme.example.com'],
          },
        },
      ]);
      // The organization detail was refetched from the server, and the list invalidated.
      expect(transport().requests.map((request) => `${request.method} ${request.path}`)).toContain(
        'GET /platform/organizations/acme-pro',
      );
      expect(
        queryClient.getQueryData<Organization>(organizationKeys.detail('acme-pro')),
      ).toMatchObject({
        billing_email: 'accounts@acme.example.com',
        additional_billing_emails: ['finance@acme.example.com', 'ap@acme.example.com'],
      });
      expect(await getOrganization('acme-pro')).toMatchObject({
        billing_email: 'accounts@acme.example.com',
        additional_billing_emails: ['finance@acme.example.com', 'ap@acme.example.com'],
      });
      await waitFor(() => expect(button('Save')).toBeDisabled());
      expect(tags()).toEqual(['finance@acme.example.com', 'ap@acme.example.com']);
    });

    it('shows the server refusal', async () => {
      await transport().signIn('developer@example.com');
      const { user } = renderSection();
      await user.type(additional(), 'ops@acme.example.com{Enter}');
      await user.click(button('Save'));
      const toast = await screen.findByText(/^Failed to update billing emails: /);
      expect(toast).toHaveTextContent('update on organizations');
      expect(within(document.body).getByRole('button', { name: 'Save' })).toBeEnabled();
    });
  });
});
