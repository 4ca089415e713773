import type { Organization, Subscription } from '@meterline/domain';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { recordedBilling } from '../../../../test/billing-fixtures';
import { recorded } from '../../../../test/fixtures';
import { createTestQueryClient, renderApp, seedCache } from '../../../../test/render-app';
import { seedBilling } from '../../../../test/seed-billing';
import {
  SPEND_CAP_MARKETPLACE_TOOLTIP,
  SPEND_CAP_PLAN_TOOLTIP,
  spendCapBlocker,
} from './cost-control-section';
import { CHANGES_DISABLED_TOOLTIP } from '../subscription/change-plan-button';

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

  it('disables the change on the marketplace and for team and enterprise, and when changes are off', () => {
    const awsCo = recorded.organization.awsCo;
    expect(spendCapBlocker(awsCo, 'pro', false)).toBe(SPEND_CAP_MARKETPLACE_TOOLTIP);
    expect(spendCapBlocker(recorded.organization.acmePro, 'team', false)).toBe(
      SPEND_CAP_PLAN_TOOLTIP,
    );
    expect(spendCapBlocker(recorded.organization.acmePro, 'enterprise', false)).toBe(
      SPEND_CAP_PLAN_TOOLTIP,
    );
    expect(spendCapBlocker(recorded.organization.acmePro, 'pro', true)).toBe(
      CHANGES_DISABLED_TOOLTIP,
    );
    expect(spendCapBlocker(recorded.organization.acmePro, 'pro', false)).toBeNull();
    const { section } = renderCostControl(awsCo, recordedBilling.subscription.awsCo);
    expect(within(section).getByRole('button', { name: 'Change spend cap' })).toBeDisabled();
  });
});
