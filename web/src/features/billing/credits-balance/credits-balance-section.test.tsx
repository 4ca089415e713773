import type { Organization, Profile } from '@meterline/domain';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { recorded, roleIn } from '../../../../test/fixtures';
import { recordedBilling } from '../../../../test/billing-fixtures';
import { recordedBillingData } from '../../../../test/recorded-billing-data';
import { withRealApi } from '../../../../test/real-api';
import { createTestQueryClient } from '../../../../test/render-app';
import { AppProviders } from '../../../app/providers';
import { subscriptionKeys } from '../../../data/keys';
import { getPaymentMethods } from '../../../data/payment-methods-query';
import { getSubscription } from '../../../data/subscription-query';
import { topUpCredits } from '../../../data/top-up-mutation';
import { getBuiltinCaptchaToken } from '../../../data/captcha';
import { attachPaymentMethod } from '../../../data/attach-payment-method-mutation';
import { createSetupIntent } from '../../../data/setup-intent-mutation';
import {
  confirmSimulatedSetup,
  resolveSimulatedChallenge,
} from '../../../payments/simulator/simulator-api';
import { CreditsBalanceSection } from './credits-balance-section';

// The spec's texts, typed out independently of the implementation.
const RANGE = 'Amount must be between $100 - $2000.';
const WHOLE = 'Amount must be a whole number.';
const SUCCESS = 'Successfully topped up balance. It may take a minute to reflect in your account.';
const NO_WRITE = 'You need additional permissions to top up credits';

const ACME_PRO = recorded.organization.acmePro;

const transport = withRealApi();

function renderSection({
  organization = ACME_PRO,
  profile = recorded.profile.owner,
  seeded = false,
}: { organization?: Organization; profile?: Profile; seeded?: boolean } = {}) {
  const queryClient = createTestQueryClient();
  if (seeded) {
    queryClient.setQueryData(
      subscriptionKeys.detail(organization.slug),
      recordedBilling.subscription.acmePro,
    );
  }
  const user = userEvent.setup();
  const view = render(
    <AppProviders queryClient={queryClient}>
      <CreditsBalanceSection
        organization={organization}
        role={roleIn(profile, organization.slug)}
      />
    </AppProviders>,
  );
  const region = () => screen.getByRole('region', { name: 'Credit balance' });
  return { ...view, user, queryClient, region };
}

async function openTopUp(user: ReturnType<typeof userEvent.setup>, region: HTMLElement) {
  await user.click(within(region).getByRole('button', { name: 'Top Up' }));
  const dialog = await screen.findByRole('dialog', { name: 'Top up credits' });
  await within(dialog).findByRole('textbox', { name: 'Amount' });
  return dialog;
}

describe('Credit balance section', () => {
  it('shows the credit as a negative amount and explains it', () => {
    const { region } = renderSection({ seeded: true });
    expect(within(region()).getByText('-$50.00')).toBeInTheDocument();
    // Negative as the spec shows it, and said to be credit held, not a debt.
    expect(within(region()).getByText('Credit your organization holds')).toBeInTheDocument();
    expect(region()).toHaveTextContent(
      '$50.00 is applied to your next invoices before any payment method is charged.',
    );
    expect(region()).toHaveTextContent(
      'Credits are applied to future invoices only. They never expire and are not refundable.',
    );
  });

  it('shows a developer the balance, with Top Up disabled and the reason', () => {
    const { region } = renderSection({
      seeded: true,
      profile: recordedBillingData.profile.developer,
    });
    expect(within(region()).getByText('-$50.00')).toBeInTheDocument();
    const topUp = within(region()).getByRole('button', { name: 'Top Up' });
    expect(topUp).toBeDisabled();
    expect(topUp.parentElement).toHaveAccessibleDescription(NO_WRITE);
  });

  it('has no Top Up when billed via a partner', () => {
    const { region } = renderSection({
      seeded: true,
      organization: { ...ACME_PRO, billing_via_partner: true },
    });
    expect(within(region()).queryByRole('button', { name: 'Top Up' })).not.toBeInTheDocument();
  });

  it('promises the Vercel-managed organization no Top Up it does not offer', async () => {
    await transport().signIn('owner@example.com');
    const { region } = renderSection({ organization: recorded.organization.vercel });
    expect(await within(region()).findByText('No credit yet.')).toBeInTheDocument();
    expect(within(region()).queryByRole('button', { name: 'Top Up' })).not.toBeInTheDocument();
    expect(region()).not.toHaveTextContent(/top-up/i);
  });

  describe('topping up', () => {
    beforeEach(async () => {
      await transport().signIn('owner@example.com');
    });

    it('refuses 99 and 150.5 with the spec messages and sends nothing', async () => {
      const { user, region } = renderSection();
      await within(region()).findByText('-$50.00');
      const dialog = await openTopUp(user, region());
      const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
      expect(amount).toHaveValue('100');
      // The default card is preselected.
      expect(within(dialog).getByRole('combobox', { name: 'Payment method' })).toHaveDisplayValue(
        /Visa ending in 4242 \(default\)/,
      );

      await user.clear(amount);
      await user.type(amount, '99');
      await user.click(within(dialog).getByRole('button', { name: 'Top Up' }));
      expect(await within(dialog).findByText(RANGE)).toBeInTheDocument();
      expect(amount).toHaveAccessibleDescription(expect.stringContaining(RANGE));
      expect(amount).toHaveFocus();

      await user.clear(amount);
      await user.type(amount, '150.5');
      await user.click(within(dialog).getByRole('button', { name: 'Top Up' }));
      expect(await within(dialog).findByText(WHOLE)).toBeInTheDocument();

      expect(transport().writes()).toEqual([]);
    });

    it('tops up 150 with the default card: one request, one key, the balance rises by $150', async () => {
      const { user, region } = renderSection();
      await within(region()).findByText('-$50.00');
      const { defaultPaymentMethodId } = await getPaymentMethods('acme-pro');
      const dialog = await openTopUp(user, region());
      const amount = within(dialog).getByRole('textbox', { name: 'Amount' });
      await user.clear(amount);
      await user.type(amount, '150');
      // A double click submits once.
      await user.dblClick(within(dialog).getByRole('button', { name: 'Top Up' }));

      expect(await screen.findByText(SUCCESS, {}, { timeout: 10_000 })).toBeInTheDocument();
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      expect(await within(region()).findByText('-$200.00')).toBeInTheDocument();

      const topUps = transport()
        .writes()
        .filter(({ path }) => path === '/platform/organizations/acme-pro/billing/credits/top-up');
      expect(topUps).toHaveLength(1);
      expect(topUps[0]?.body).toEqual({
        amount: 150,
        payment_method_id: defaultPaymentMethodId,
        hcaptcha_token: expect.any(String),
      });
      expect(topUps[0]?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
      expect((await getSubscription('acme-pro')).customer_balance).toBe(20_000);
    });

    it('charges once for a request sent twice with one key', async () => {
      const before = (await getSubscription('acme-pro')).customer_balance;
      const { defaultPaymentMethodId } = await getPaymentMethods('acme-pro');
      const key = crypto.randomUUID();
      const send = async () =>
        topUpCredits(
          'acme-pro',
          {
            amount: 150,
            payment_method_id: defaultPaymentMethodId ?? '',
            hcaptcha_token: await getBuiltinCaptchaToken(),
          },
          key,
        );
      const [first, second] = [await send(), await send()];
      expect(first.status).toBe('succeeded');
      expect(second).toEqual(first);
      expect((await getSubscription('acme-pro')).customer_balance).toBe(before + 15_000);
    });

    it('asks for 3-D Secure with 4000 0027 6000 3184: a failed challenge changes nothing, a completed one tops up', async () => {
      // The card is saved the way the add-card flow saves it (its own setup challenge completed); this
      // test card asks again on every payment.
      const { client_secret } = await createSetupIntent('acme-pro', await getBuiltinCaptchaToken());
      const setup = await confirmSimulatedSetup(client_secret, {
        number: '4000002760003184',
        exp_month: 12,
        exp_year: 2030,
        cvc: '123',
      });
      if (setup.status === 'requires_action') {
        await resolveSimulatedChallenge(setup.challenge.id, 'complete');
      }
      const card = await attachPaymentMethod('acme-pro', setup.setup_intent_id);
      const before = (await getSubscription('acme-pro')).customer_balance;

      const { user, region } = renderSection();
      await within(region()).findByText(/^-\$/);
      const dialog = await openTopUp(user, region());
      await user.selectOptions(
        within(dialog).getByRole('combobox', { name: 'Payment method' }),
        card.id,
      );
      await user.click(within(dialog).getByRole('button', { name: 'Top Up' }));
      let challenge = await screen.findByRole(
        'dialog',
        { name: "Confirm it's you" },
        { timeout: 10_000 },
      );
      await user.click(within(challenge).getByRole('button', { name: 'Fail authentication' }));
      const alert = await within(dialog).findByRole('alert', {}, { timeout: 10_000 });
      expect(alert).toHaveTextContent('Error topping up balance');
      expect(alert).toHaveTextContent('We are unable to authenticate your payment method.');
      expect((await getSubscription('acme-pro')).customer_balance).toBe(before);

      await user.click(within(dialog).getByRole('button', { name: 'Top Up' }));
      challenge = await screen.findByRole(
        'dialog',
        { name: "Confirm it's you" },
        { timeout: 10_000 },
      );
      await user.click(within(challenge).getByRole('button', { name: 'Complete authentication' }));
      expect(await screen.findByText(SUCCESS, {}, { timeout: 10_000 })).toBeInTheDocument();
      expect((await getSubscription('acme-pro')).customer_balance).toBe(before + 10_000);
    });

    it('shows the error inline and as a toast when the top-up fails', async () => {
      // The screen believes the user may write; the API, seeing a developer, refuses.
      await transport().signIn('developer@example.com');
      const { user, region } = renderSection();
      await within(region()).findByText(/^-\$/);
      const dialog = await openTopUp(user, region());
      await user.click(within(dialog).getByRole('button', { name: 'Top Up' }));
      const alert = await within(dialog).findByRole('alert', {}, { timeout: 10_000 });
      expect(alert).toHaveTextContent('Error topping up balance');
      expect(
        await screen.findByText(/^Failed to top up credits: .*billing write on subscriptions/),
      ).toBeInTheDocument();
      expect(alert).toHaveTextContent(/billing write on subscriptions/);
    });
  });
});
