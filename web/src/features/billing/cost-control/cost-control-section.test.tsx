import {
  SPEND_CAP_ALWAYS_OFF_MESSAGE,
  SPEND_CAP_MARKETPLACE_MESSAGE,
  type Organization,
  type Subscription,
} from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordedBilling } from '../../../../test/billing-fixtures';
import { recorded } from '../../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../../test/render-app';
import { seedBilling } from '../../../../test/seed-billing';

function renderCostControl(organization: Organization, subscription: Subscription) {
  const queryClient = createTestQueryClient();
  seedCache(queryClient, {
    profile: recorded.profile.owner,
    organizations: recorded.organizations,
    organization,
  });
  seedBilling(queryClient, organization.slug, { subscription });
  const view = renderApp(`/org/${organization.slug}/billing`, queryClient);
  return { ...view, section: screen.getByRole('region', { name: 'Cost control' }) };
}

describe('cost control section', () => {
  it('shows the spend cap on and links to the cost control panel', () => {
    const { section } = renderCostControl(
      recorded.organization.acmePro,
      recordedBilling.subscription.acmePro,
    );
    expect(within(section).getByText('On')).toBeInTheDocument();
    expect(within(section).getByRole('link', { name: 'Change spend cap' })).toHaveAttribute(
      'href',
      '/org/acme-pro/billing?panel=costControl',
    );
  });

  it('shows the spend cap off for a pay-as-you-go organization', () => {
    const { section } = renderCostControl(
      recordedBilling.organization.paygCo,
      recordedBilling.subscription.paygCo,
    );
    expect(within(section).getByText('Off')).toBeInTheDocument();
  });

  it('disables the change on the marketplace and for team, with the reason', () => {
    const aws = renderCostControl(recorded.organization.awsCo, recordedBilling.subscription.awsCo);
    expect(within(aws.section).getByRole('button', { name: 'Change spend cap' })).toBeDisabled();
    expect(within(aws.section).getByText(SPEND_CAP_MARKETPLACE_MESSAGE)).toBeInTheDocument();
    aws.unmount();
    const team = renderCostControl(recorded.organization.acmePro, {
      ...recordedBilling.subscription.acmePro,
      plan: { id: 'team', name: 'Team' },
    });
    expect(within(team.section).getByRole('button', { name: 'Change spend cap' })).toBeDisabled();
    expect(within(team.section).getByText(SPEND_CAP_ALWAYS_OFF_MESSAGE)).toBeInTheDocument();
  });
});
