import { render, screen, within } from '@testing-library/react';
import { CREDITED_TO_BALANCE_LABEL, type SubscriptionPreview } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { downgradeFixtures } from '../../../test/downgrade-fixtures';
import { DowngradeConsequences } from './downgrade-confirm-step';

/** acme-team → Pro with 12 days of Team left: the unused time outweighs Pro's fee (issue 23, item 7). */
const belowZero: SubscriptionPreview = {
  ...downgradeFixtures.preview.acmeTeamToPro,
  breakdown: [
    {
      description: 'Unused time on Team plan',
      total_price: -23_960,
      kind: 'unused_time',
      period_start: 1_795_000_000,
      period_end: 1_796_000_000,
      breakdown: [],
    },
    {
      description: 'Pro plan',
      total_price: 2500,
      kind: 'plan_fee',
      period_start: 1_795_000_000,
      period_end: 1_797_600_000,
      breakdown: [],
    },
  ],
  total: -21_460,
  credit_applied: 0,
  charge_today: 0,
  credited_to_balance: 21_460,
};

function row(name: string): HTMLElement {
  const found = screen.getByRole('rowheader', { name }).closest('tr');
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

describe('DowngradeConsequences: what is settled today', () => {
  it('a total below zero: nothing charged, the difference added to the credit balance, line by line', () => {
    render(<DowngradeConsequences preview={belowZero} currentPlan="team" targetPlan="pro" />);
    expect(within(row('Total')).getByText('-$214.60')).toBeInTheDocument();
    expect(within(row('Charged today')).getByText('$0.00')).toBeInTheDocument();
    expect(within(row(CREDITED_TO_BALANCE_LABEL)).getByText('$214.60')).toBeInTheDocument();
  });

  it('a scheduled change (fly-co) settles nothing today: no such table', () => {
    render(
      <DowngradeConsequences
        preview={downgradeFixtures.preview.flyCoToFree}
        currentPlan="pro"
        targetPlan="free"
      />,
    );
    expect(screen.queryByText('Settled today')).not.toBeInTheDocument();
    expect(screen.queryByText(CREDITED_TO_BALANCE_LABEL)).not.toBeInTheDocument();
  });
});
