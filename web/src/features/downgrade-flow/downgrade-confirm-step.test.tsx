import { render, screen, within } from '@testing-library/react';
import { CREDITED_TO_BALANCE_LABEL, type SubscriptionPreview } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { downgradeFixtures } from '../../../test/downgrade-fixtures';
import { DowngradeConsequences } from './downgrade-confirm-step';

/** acme-team → Pro with 12 days of Team left: the unused time outweighs Pro's fee. */
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

  it('Team → Pro names each line’s period, says the cycle restarts and the spend cap will be off', () => {
    render(
      <DowngradeConsequences
        preview={{ ...belowZero, tier: 'tier_payg' }}
        currentPlan="team"
        targetPlan="pro"
      />,
    );
    // The spec's invoice date format, typed out: MMM DD, YYYY.
    expect(row('Unused time on Team plan Nov 18, 2026 – Nov 30, 2026')).toHaveTextContent(
      '-$239.60',
    );
    expect(row('Pro plan Nov 18, 2026 – Dec 18, 2026')).toHaveTextContent('$25.00');
    const restart = screen.getByText('Your billing cycle restarts today').closest('div');
    expect(restart?.parentElement).toHaveTextContent(
      'The new cycle runs Nov 18, 2026 – Dec 18, 2026',
    );
    expect(screen.getByText(/The spend cap will be off/)).toBeInTheDocument();
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
    expect(screen.queryByText('Your billing cycle restarts today')).not.toBeInTheDocument();
  });
});
