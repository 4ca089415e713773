import { useState } from 'react';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { toast } from 'sonner';
import type { PlanId, SubscriptionPreview } from '@meterline/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  installContractApi,
  type ContractApi,
  type ContractHandler,
} from '../../../test/contract-api';
import { downgradeFixtures } from '../../../test/downgrade-fixtures';
import { createTestQueryClient, TestProviders } from './test-providers';
import { DowngradeFlow } from './downgrade-flow';

// The spec's texts, typed out independently of the implementation.
const REASON_REQUIRED = 'Please select a reason for canceling your subscription.';
const TO_FREE = 'Successfully downgraded organization to the Free Plan';
const TO_PRO = 'Successfully downgraded subscription to Pro!';
const DISABLED = 'Subscription changes are currently disabled. Our engineers are working on a fix.';

const PAYMENTS_CONFIG = {
  payment_provider: 'simulator',
  publishable_key: null,
  captcha: { provider: 'builtin', site_key: null },
};

let api: ContractApi | undefined;
afterEach(() => {
  api?.restore();
  // Toasts live in sonner's module state: one test's must not be found by the next.
  toast.dismiss();
});

function subscriptionPath(slug: string, rest = '') {
  return `/platform/organizations/${slug}/billing/subscription${rest}`;
}

/** The contract's answers for one organization's downgrade. */
function contractFor(
  slug: string,
  preview: SubscriptionPreview,
  members: unknown[] = [],
): Record<string, ContractHandler> {
  return {
    'GET /platform/payments/config': () => ({ body: PAYMENTS_CONFIG }),
    [`POST ${subscriptionPath(slug, '/preview')}`]: () => ({ body: preview }),
    [`GET /platform/organizations/${slug}/members/reached-free-project-limit`]: () => ({
      body: members,
    }),
    'POST /platform/feedback/downgrade': () => ({ status: 201, body: { ok: true } }),
    [`PUT ${subscriptionPath(slug)}`]: () => ({
      body: {
        status: preview.effective_at === 'now' ? 'applied' : 'scheduled',
        pending_payment_intent_secret: null,
        payment_intent_id: null,
        message: 'ok',
      },
    }),
  };
}

/** The flow as a plan panel opens it: a button that mounts it and gets focus back when it closes. */
function Opener(props: {
  slug: string;
  name: string;
  current: PlanId;
  target: PlanId;
  projectUpdatesDisabled?: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {`Downgrade to ${props.target}`}
      </button>
      {open ? (
        <DowngradeFlow
          orgSlug={props.slug}
          organizationName={props.name}
          currentPlan={props.current}
          targetPlan={props.target}
          projectUpdatesDisabled={props.projectUpdatesDisabled ?? false}
          // Always the catalogue order shifted by one: a fixed "shuffle".
          random={() => 0}
          onClose={() => {
            setOpen(false);
            props.onClose();
          }}
          onDone={() => {
            setOpen(false);
            props.onDone();
          }}
        />
      ) : null}
    </>
  );
}

async function openFlow({
  slug,
  name,
  current = 'pro',
  target = 'free',
  preview,
  members,
  projectUpdatesDisabled,
}: {
  slug: string;
  name: string;
  current?: PlanId;
  target?: PlanId;
  preview: SubscriptionPreview;
  members?: unknown[];
  projectUpdatesDisabled?: boolean;
}) {
  api = installContractApi(contractFor(slug, preview, members));
  const onClose = vi.fn();
  const onDone = vi.fn();
  const user = userEvent.setup();
  render(
    <TestProviders queryClient={createTestQueryClient()}>
      <Opener
        slug={slug}
        name={name}
        current={current}
        target={target}
        projectUpdatesDisabled={projectUpdatesDisabled}
        onClose={onClose}
        onDone={onDone}
      />
    </TestProviders>,
  );
  const opener = screen.getByRole('button', { name: `Downgrade to ${target}` });
  await user.click(opener);
  const dialog = await screen.findByRole('dialog');
  // The preview is in once its loading region has gone.
  await waitFor(() =>
    expect(
      within(dialog).queryByRole('status', { name: /Loading what the downgrade changes/ }),
    ).not.toBeInTheDocument(),
  );
  return { user, dialog, opener, onClose, onDone, api: api };
}

async function toSurvey(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
  await user.click(within(dialog).getByRole('button', { name: 'Confirm downgrade' }));
  await within(dialog).findByRole('group', { name: 'Why are you downgrading?' });
}

async function axeViolations(): Promise<string[]> {
  const results = await axe.run(document.body, {
    // jsdom has no layout: contrast cannot be computed here (the browser tests check it).
    rules: { 'color-contrast': { enabled: false } },
  });
  return results.violations.map((violation) => `${violation.id}: ${violation.help}`);
}

describe('DowngradeFlow: the confirm modal', () => {
  it('lists what acme-pro loses, with its custom domain, and not the Micro compute', async () => {
    const { dialog } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    expect(dialog).toHaveAccessibleName('Downgrade to the Free plan');
    const addons = await within(dialog).findByRole('region', {
      name: 'Add-ons removed from your projects',
    });
    const project1 = within(addons).getByRole('list', { name: 'Add-ons of Acme Pro Project 1' });
    expect(
      within(project1)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Custom Domain']);
    expect(
      within(addons).getByRole('list', { name: 'Add-ons of Acme Pro Project 2' }),
    ).toHaveTextContent('Small compute');
    expect(addons).not.toHaveTextContent('Micro');
    expect(
      within(dialog).getByRole('region', { name: 'You lose what the Pro plan includes' }),
    ).toHaveTextContent('Email support');
    expect(dialog).toHaveTextContent('Projects restart on the free instance');
    // What the change settles today, from the preview.
    expect(dialog).toHaveTextContent('Charged today$0.00');
    // Nothing is sent before the customer confirms.
    expect(api?.writes().map((request) => request.path)).toEqual([
      subscriptionPath('acme-pro', '/preview'),
    ]);
    expect(api?.writes()[0]?.body).toEqual({ tier: 'tier_free' });
    expect(api?.writes()[0]?.headers.version).toBe('2');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows fly-co the date the downgrade takes effect', async () => {
    const preview = downgradeFixtures.preview.flyCoToFree;
    const { dialog } = await openFlow({ slug: 'fly-co', name: 'Fly Co', preview });
    const date = new Intl.DateTimeFormat('en-US', {
      month: 'short',
      day: '2-digit',
      year: 'numeric',
      timeZone: 'UTC',
    }).format(new Date(preview.effective_date * 1000));
    expect(await within(dialog).findByText(`Takes effect on ${date}`)).toBeInTheDocument();
  });

  it('disables Confirm under the global switch, with the reason', async () => {
    const { dialog } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
      projectUpdatesDisabled: true,
    });
    await within(dialog).findByRole('region', { name: 'Add-ons removed from your projects' });
    const confirm = within(dialog).getByRole('button', { name: 'Confirm downgrade' });
    expect(confirm).toBeDisabled();
    expect(confirm.parentElement).toHaveAccessibleDescription(DISABLED);
  });

  it('takes focus, closes on Escape and gives focus back to the opener', async () => {
    const { user, dialog, opener, onClose } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onClose).toHaveBeenCalledOnce();
    await waitFor(() => expect(opener).toHaveFocus());
    expect(api?.writes().filter((request) => request.method === 'PUT')).toEqual([]);
  });
});

describe('DowngradeFlow: by keyboard alone', () => {
  it('confirms, picks a reason with the arrows and submits', async () => {
    const { user, dialog, onDone } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    // The scrolling consequences, Cancel, then Confirm.
    await user.tab();
    expect(
      within(dialog).getByRole('region', { name: 'What the downgrade changes' }),
    ).toHaveFocus();
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Confirm downgrade' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await within(dialog).findByRole('group', { name: 'Why are you downgrading?' });
    const radios = within(dialog).getAllByRole('radio');
    expect(radios[0]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(radios[1]).toBeChecked();
    await user.tab();
    expect(within(dialog).getByRole('textbox')).toHaveFocus();
    await user.keyboard('Thanks');
    await user.tab();
    await user.tab();
    expect(within(dialog).getByRole('button', { name: 'Submit and downgrade' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onDone).toHaveBeenCalledOnce(), { timeout: 5000 });
    // The preview's proration date: the change is charged what the preview showed.
    expect(api?.writes().find((request) => request.method === 'PUT')?.body).toEqual({
      tier: 'tier_free',
      proration_date: downgradeFixtures.preview.acmeProToFree.proration_date,
    });
  });
});

describe('DowngradeFlow: members at their free project limit', () => {
  it('blocks crowded-co at once, before any preview, with each member and their limit, and only a way out', async () => {
    const { user, dialog, opener, onClose } = await openFlow({
      slug: 'crowded-co',
      name: 'Crowded Co',
      preview: downgradeFixtures.preview.acmeProToFree,
      members: downgradeFixtures.membersAtLimit.crowdedCo,
    });
    // The free project limit is checked first: no preview, no Confirm to click.
    await waitFor(() =>
      expect(dialog).toHaveAccessibleName('Members have reached their free project limit'),
    );
    const list = within(dialog).getByRole('list', { name: 'Members at their free project limit' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([
      'mayaLimit of 2 free projects',
      'theo@example.com' + 'Limit of 2 free projects',
    ]);
    expect(within(dialog).queryByRole('radio')).not.toBeInTheDocument();
    // The footer's Close and the dialog's own close icon: nothing else to do here.
    const [close, closeIcon] = within(dialog).getAllByRole('button');
    expect(close).toHaveTextContent('Close');
    expect(closeIcon).toHaveAccessibleName('Close');
    expect(within(dialog).getAllByRole('button')).toHaveLength(2);
    expect(close).toHaveFocus();
    expect(await axeViolations()).toEqual([]);
    if (!close) throw new Error('no Close button');
    await user.click(close);
    expect(onClose).toHaveBeenCalledOnce();
    await waitFor(() => expect(opener).toHaveFocus());
    expect(api?.writes()).toEqual([]);
    expect(within(document.body).queryByText(/Confirm downgrade/)).not.toBeInTheDocument();
  });
});

describe('DowngradeFlow: the exit survey', () => {
  it('asks for a reason, keeps "None of the above" last and follows the reason in its prompt', async () => {
    const { user, dialog } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    await toSurvey(user, dialog);
    const radios = within(dialog).getAllByRole('radio');
    expect(radios).toHaveLength(11);
    expect(radios[0]).toHaveFocus();
    expect(radios.at(-1)).toHaveAccessibleName('None of the above');
    // The fixed source moved the first reason of the catalogue to the end of the ten.
    expect(radios[9]).toHaveAccessibleName('I was exploring or building a hobby project');

    await user.click(within(dialog).getByRole('button', { name: 'Submit and downgrade' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(REASON_REQUIRED);
    expect(radios[0]).toHaveAccessibleDescription(REASON_REQUIRED);
    expect(radios[0]).toHaveFocus();
    expect(
      api
        ?.writes()
        .filter((request) => request.method !== 'POST' || !request.path.endsWith('/preview')),
    ).toEqual([]);

    expect(
      within(dialog).getByRole('textbox', { name: 'Anything else you would like to tell us?' }),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: 'A feature I need is missing' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(
      within(dialog).getByRole('textbox', { name: 'Which feature were you missing?' }),
    ).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });

  it('sends the survey, then tier_free; the Free toast mentions the restart', async () => {
    const { user, dialog, onDone } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    await toSurvey(user, dialog);
    await user.click(within(dialog).getByRole('radio', { name: 'It is too expensive' }));
    await user.type(within(dialog).getByRole('textbox'), ' $15 would do ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit and downgrade' }));
    expect(
      await screen.findByText(new RegExp(`^${TO_FREE}\\. .*restarting`), {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(onDone).toHaveBeenCalledOnce();
    const writes = api?.writes().filter((request) => !request.path.endsWith('/preview')) ?? [];
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /platform/feedback/downgrade',
      `PUT ${subscriptionPath('acme-pro')}`,
    ]);
    expect(writes[0]?.body).toEqual({
      orgSlug: 'acme-pro',
      reasons: '- It is too expensive',
      additionalFeedback: '$15 would do',
      exitAction: 'downgrade',
    });
    expect(writes[1]?.body).toEqual({
      tier: 'tier_free',
      proration_date: downgradeFixtures.preview.acmeProToFree.proration_date,
    });
    expect(writes[1]?.headers['idempotency-key']).toBeTruthy();
  });

  it('sends Team to Pro as the pay-as-you-go tier', async () => {
    const { user, dialog } = await openFlow({
      slug: 'acme-team',
      name: 'Acme Team',
      current: 'team',
      target: 'pro',
      preview: downgradeFixtures.preview.acmeTeamToPro,
    });
    expect(api?.writes()[0]?.body).toEqual({ tier: 'tier_payg' });
    // No free project limit to check for a paid target.
    await toSurvey(user, dialog);
    expect(
      api?.requests.some((request) => request.path.includes('reached-free-project-limit')),
    ).toBe(false);
    await user.click(within(dialog).getByRole('radio', { name: 'None of the above' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit and downgrade' }));
    expect(await screen.findByText(TO_PRO, {}, { timeout: 5000 })).toBeInTheDocument();
    const put = api?.writes().find((request) => request.method === 'PUT');
    expect(put?.path).toBe(subscriptionPath('acme-team'));
    expect(put?.body).toEqual({
      tier: 'tier_payg',
      proration_date: downgradeFixtures.preview.acmeTeamToPro.proration_date,
    });
  });

  it('does not let a failed survey block the change', async () => {
    const { user, dialog, onDone } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    api?.on('POST /platform/feedback/downgrade', () => ({
      status: 500,
      body: { message: 'The survey store is down' },
    }));
    await toSurvey(user, dialog);
    await user.click(within(dialog).getByRole('radio', { name: 'My project was cancelled' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit and downgrade' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledOnce(), { timeout: 5000 });
    expect(screen.getByText(new RegExp(`^${TO_FREE}`))).toBeInTheDocument();
    expect(screen.queryByText(/survey store/)).not.toBeInTheDocument();
    // The preview's proration date: the change is charged what the preview showed.
    expect(api?.writes().find((request) => request.method === 'PUT')?.body).toEqual({
      tier: 'tier_free',
      proration_date: downgradeFixtures.preview.acmeProToFree.proration_date,
    });
  });

  it('shows a refused change as the spec error and stays open to try again', async () => {
    const { user, dialog, onDone } = await openFlow({
      slug: 'acme-pro',
      name: 'Acme Pro',
      preview: downgradeFixtures.preview.acmeProToFree,
    });
    api?.on(`PUT ${subscriptionPath('acme-pro')}`, () => ({
      status: 409,
      body: { message: 'Another change of this subscription is in progress.' },
    }));
    await toSurvey(user, dialog);
    await user.click(within(dialog).getByRole('radio', { name: 'It is too expensive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit and downgrade' }));
    expect(
      await screen.findByText(
        'Unable to update subscription: Another change of this subscription is in progress.',
      ),
    ).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('schedules fly-co and says when it takes effect', async () => {
    const preview = downgradeFixtures.preview.flyCoToFree;
    const { user, dialog } = await openFlow({ slug: 'fly-co', name: 'Fly Co', preview });
    await toSurvey(user, dialog);
    await user.click(within(dialog).getByRole('radio', { name: 'It is too expensive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit and schedule downgrade' }));
    expect(
      await screen.findByText(
        /Your organization will move to the Free plan on /,
        {},
        { timeout: 5000 },
      ),
    ).toBeInTheDocument();
  });
});
