import type { ReactNode } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import {
  PRORATION_DATE_MAX_AGE_SECONDS,
  PRORATION_DATE_STALE_MESSAGE,
  subscriptionPreviewSchema,
  type SubscriptionPreview,
} from '@meterline/domain';
import { TooltipDelay } from '../../components/ui/tooltip';
import { toast, Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordedBilling } from '../../../test/billing-fixtures';
import {
  installContractApi,
  type ContractApi,
  type ContractRequest,
} from '../../../test/contract-api';
import { recorded } from '../../../test/fixtures';
import { createQueryClient } from '../../data/query-client';
import { PREVIEW_REFRESH_MS } from '../../data/subscription-preview-query';
import { UpgradeDialog } from './upgrade-dialog';

// The upgrade dialog's price never goes stale under the owner: the server honours a
// preview's proration_date for 10 minutes, so the dialog asks again before then, and a refusal of an
// expired price prices the change again instead of ending in an error.

const SLUG = 'acme-pro';
const BASE = `/platform/organizations/${SLUG}`;
const PAYMENTS_CONFIG = {
  payment_provider: 'simulator',
  publishable_key: null,
  captcha: { provider: 'builtin', site_key: null },
};
const VISA = {
  id: 'pm_visa',
  type: 'card',
  created: 1_790_000_000,
  has_address: false,
  last_charge: null,
  is_default: true,
  is_backup: false,
  card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 },
};
const subscription = recordedBilling.subscription.acmePro;

/** acme-pro to Team priced at `now`: unused Pro time credited, Team's fee, the $50 balance applied. */
function previewAt(now: number): SubscriptionPreview {
  const unused = -1476;
  const total = unused + 59_900;
  return subscriptionPreviewSchema.parse({
    plan_change_type: 'upgrade',
    target_plan: { id: 'team', name: 'Team' },
    tier: 'tier_team',
    breakdown: [
      {
        description: 'Unused time on Pro plan',
        total_price: unused,
        kind: 'unused_time',
        period_start: now,
        period_end: subscription.current_period_end,
        breakdown: [],
      },
      {
        description: 'Team plan',
        total_price: 59_900,
        kind: 'plan_fee',
        period_start: now,
        period_end: now + 30 * 86_400,
        breakdown: [],
      },
    ],
    total,
    credit_applied: 5000,
    charge_today: total - 5000,
    balance_after: 0,
    credited_to_balance: 0,
    monthly_invoice_estimate: 70_720,
    proration_date: now,
    effective_at: 'now',
    effective_date: now,
    billed_via_partner: false,
    number_of_projects: 3,
    active_projects: [],
    addons_to_remove: [],
  });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

let api: ContractApi | undefined;
afterEach(() => {
  api?.restore();
  toast.dismiss();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * The contract of the plan-change endpoints, with the server's rule on proration dates: older than
 * PRORATION_DATE_MAX_AGE_SECONDS is refused with its 400 (or, with `refuseFirst`, the first change
 * is refused, as if the owner's computer had slept through the refresh).
 */
function installApi({ refuseFirst = false }: { refuseFirst?: boolean } = {}) {
  let changes = 0;
  api = installContractApi({
    'GET /platform/payments/config': () => ({ body: PAYMENTS_CONFIG }),
    [`GET ${BASE}/payments`]: () => ({ body: { data: [VISA], defaultPaymentMethodId: VISA.id } }),
    [`GET ${BASE}/billing/subscription`]: () => ({ body: subscription }),
    [`POST ${BASE}/billing/subscription/preview`]: () => ({ body: previewAt(nowSeconds()) }),
    [`PUT ${BASE}/billing/subscription`]: (request) => {
      changes += 1;
      const { proration_date } = request.body as { proration_date: number };
      const age = nowSeconds() - proration_date;
      if ((refuseFirst && changes === 1) || age > PRORATION_DATE_MAX_AGE_SECONDS) {
        return { status: 400, body: { message: PRORATION_DATE_STALE_MESSAGE } };
      }
      return {
        body: {
          status: 'applied',
          pending_payment_intent_secret: null,
          payment_intent_id: null,
          message: 'Changed',
        },
      };
    },
  });
  return api;
}

function previews(contract: ContractApi): ContractRequest[] {
  return contract.requests.filter((r) => r.path === `${BASE}/billing/subscription/preview`);
}

function changes(contract: ContractApi): ContractRequest[] {
  return contract.requests.filter(
    (r) => r.method === 'PUT' && r.path === `${BASE}/billing/subscription`,
  );
}

function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <TooltipDelay value={0}>
        {children}
        <Toaster closeButton />
      </TooltipDelay>
    </QueryClientProvider>
  );
}

function renderDialog(onUpgraded = vi.fn()) {
  const queryClient = createQueryClient({
    queries: { retry: false, retryOnMount: false },
  });
  render(
    <Providers queryClient={queryClient}>
      <UpgradeDialog
        organization={recorded.organization.acmePro}
        role="owner"
        target="team"
        onClose={() => undefined}
        onUpgraded={onUpgraded}
      />
    </Providers>,
  );
  return { onUpgraded };
}

async function shownCharge(): Promise<string> {
  const dialog = await screen.findByRole('dialog', { name: 'Upgrade to Team' });
  const table = await within(dialog).findByRole('table', { name: 'Charge today' });
  const row = within(table).getByRole('rowheader', { name: 'Charge today' }).closest('tr');
  return row?.textContent ?? '';
}

describe('the upgrade dialog keeps its price fresh', () => {
  it('refreshes the preview well inside the 10 minutes the server honours it', () => {
    expect(PREVIEW_REFRESH_MS).toBeGreaterThan(0);
    // Room for a slow answer and a throttled background tab.
    expect(PREVIEW_REFRESH_MS).toBeLessThanOrEqual((PRORATION_DATE_MAX_AGE_SECONDS * 1000) / 2);
  });

  it('an owner who leaves it open 25 minutes confirms a price the server still accepts', async () => {
    // The refresh runs on an interval; timeouts stay real (the wait after the change, waitFor).
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setInterval', 'clearInterval'] });
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    const contract = installApi();
    const user = userEvent.setup();
    const { onUpgraded } = renderDialog();
    // $599.00 - $14.76 unused Pro time - $50.00 credit.
    expect(await shownCharge()).toContain('$534.24');
    expect(previews(contract)).toHaveLength(1);

    // 25 minutes, one refresh after another; the clock moves with them.
    for (let refresh = 1; refresh <= 5; refresh += 1) {
      clock += PREVIEW_REFRESH_MS;
      vi.advanceTimersByTime(PREVIEW_REFRESH_MS);
      await waitFor(() => expect(previews(contract)).toHaveLength(1 + refresh));
    }
    await user.click(screen.getByRole('button', { name: 'Confirm upgrade' }));
    await waitFor(() => expect(changes(contract)).toHaveLength(1));
    const sent = (changes(contract)[0]?.body as { proration_date: number }).proration_date;
    expect(nowSeconds() - sent).toBeLessThan(PRORATION_DATE_MAX_AGE_SECONDS);
    await waitFor(() => expect(onUpgraded).toHaveBeenCalledWith({ from: 'pro', to: 'team' }), {
      timeout: 5_000,
    });
  });

  it('an expired price refused by the server is priced again, not shown as a failure', async () => {
    const contract = installApi({ refuseFirst: true });
    const user = userEvent.setup();
    const { onUpgraded } = renderDialog();
    await shownCharge();
    const first = previews(contract).length;

    await user.click(screen.getByRole('button', { name: 'Confirm upgrade' }));
    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('The charge was worked out again');
    expect(notice).toHaveTextContent('nothing was charged');
    await waitFor(() => expect(previews(contract).length).toBe(first + 1));
    // No dead end: no error toast, no failure alert, and Confirm is there again.
    expect(screen.queryByText(/Unable to update subscription/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(onUpgraded).not.toHaveBeenCalled();

    const confirm = screen.getByRole('button', { name: 'Confirm upgrade' });
    await waitFor(() => expect(confirm).toBeEnabled());
    await user.click(confirm);
    await waitFor(() => expect(onUpgraded).toHaveBeenCalledWith({ from: 'pro', to: 'team' }), {
      timeout: 5_000,
    });
    expect(changes(contract)).toHaveLength(2);
  });
});
