import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'sonner';
import { afterEach, describe, expect, it } from 'vitest';
import { installContractApi, type ContractApi } from '../../../test/contract-api';
import { downgradeFixtures } from '../../../test/downgrade-fixtures';
import { createTestQueryClient, TestProviders } from './test-providers';
import { ScheduledChangeNotice } from './scheduled-change-notice';

const NO_PERMISSION = 'You do not have permission to change the subscription plan';
const CANCEL_PATH = '/platform/organizations/fly-co/billing/subscription/scheduled-change';
// The end of the recorded cycle, as fly-co's preview schedules the downgrade for it.
const AT = downgradeFixtures.preview.flyCoToFree.effective_date;
const SCHEDULED = { target_plan: 'free' as const, at: AT, usage_billing_enabled: false };

let api: ContractApi | undefined;
afterEach(() => {
  api?.restore();
  toast.dismiss();
});

function renderNotice(canWrite: boolean, status = 200) {
  api = installContractApi({
    [`DELETE ${CANCEL_PATH}`]: () =>
      status === 200
        ? { body: { message: 'The scheduled change was cancelled' } }
        : { status, body: { message: 'Nothing is scheduled' } },
  });
  render(
    <TestProviders queryClient={createTestQueryClient()}>
      <ScheduledChangeNotice orgSlug="fly-co" scheduled={SCHEDULED} canWrite={canWrite} />
    </TestProviders>,
  );
  return { user: userEvent.setup(), api };
}

const date = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: '2-digit',
  year: 'numeric',
  timeZone: 'UTC',
}).format(new Date(AT * 1000));

describe('ScheduledChangeNotice', () => {
  it('says when the organization moves, and cancels the change', async () => {
    const { user } = renderNotice(true);
    expect(
      screen.getByText(`Your organization will move to the Free plan on ${date}`),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel scheduled change' }));
    expect(
      await screen.findByText('Cancelled the scheduled move to the Free plan'),
    ).toBeInTheDocument();
    expect(api?.writes().map((request) => `${request.method} ${request.path}`)).toEqual([
      `DELETE ${CANCEL_PATH}`,
    ]);
  });

  it('shows a refusal as the spec error', async () => {
    const { user } = renderNotice(true, 409);
    await user.click(screen.getByRole('button', { name: 'Cancel scheduled change' }));
    expect(
      await screen.findByText('Unable to update subscription: Nothing is scheduled'),
    ).toBeInTheDocument();
  });

  it('is disabled with the reason without billing write', async () => {
    renderNotice(false);
    const button = screen.getByRole('button', { name: 'Cancel scheduled change' });
    expect(button).toBeDisabled();
    expect(button.parentElement).toHaveAccessibleDescription(NO_PERMISSION);
    await waitFor(() => expect(api?.writes()).toEqual([]));
  });

  it('renders nothing when no change is scheduled', () => {
    render(
      <TestProviders queryClient={createTestQueryClient()}>
        <ScheduledChangeNotice orgSlug="fly-co" scheduled={null} canWrite />
      </TestProviders>,
    );
    expect(screen.queryByText(/will move to/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel scheduled change' })).toBeNull();
  });
});
