import type { Locator, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiResponse,
  billingSection,
  eventually,
  gotoBilling,
  useHarness,
} from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';
import { toastWith } from './support/payments.ts';

// Issue 11 (item 9 and the scheduled change), in the browser against the real product: acme-pro
// downgrades to Free through the confirm modal and the exit survey; crowded-co's downgrade is blocked
// by the members modal; fly-co's downgrade is scheduled for the end of its cycle, shown in the
// subscription section, and cancelled.

// The spec's texts, typed out independently of the implementation.
const REASON_REQUIRED = 'Please select a reason for canceling your subscription.';
const TO_FREE = 'Successfully downgraded organization to the Free Plan';

/** "Dec 09, 2026": the spec's invoice date format, computed here rather than by the product. */
function shownDate(unixSeconds: number): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(unixSeconds * 1000));
}

interface ApiSubscription {
  plan: { id: string };
  current_period_end: number;
  scheduled_plan_change: { target_plan: string; at: number } | null;
}

async function apiSubscription(page: Page, slug: string): Promise<ApiSubscription> {
  const response = await page.request.get(`/platform/organizations/${slug}/billing/subscription`);
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiSubscription;
}

/** Every write the page sends to this API path and method. */
function recordWrites(page: Page, pathname: string, method: string): Request[] {
  const requests: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === method && new URL(request.url()).pathname === pathname) {
      requests.push(request);
    }
  });
  return requests;
}

function changePlanLink(page: Page): Locator {
  return billingSection(page, 'subscription').getByRole('link', {
    name: 'Change subscription plan',
  });
}

async function expectFocusOn(page: Page, target: Locator): Promise<void> {
  await eventually(() => target.evaluate((element) => element === document.activeElement)).toBe(
    true,
  );
}

/**
 * Opens the plan panel with the subscription section's link and its "Downgrade to Free"; answers the
 * flow's dialog once the preview is in.
 */
async function openDowngradeToFree(page: Page, slug: string): Promise<Locator> {
  await gotoBilling(page, slug);
  const preview = apiResponse(
    page,
    `/platform/organizations/${slug}/billing/subscription/preview`,
    'POST',
  );
  await changePlanLink(page).click();
  await page
    .getByRole('dialog', { name: 'Change subscription plan' })
    .getByRole('button', { name: 'Downgrade to Free' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Downgrade to the Free plan' });
  await dialog.waitFor();
  expect((await preview).status()).toBe(200);
  await dialog.getByRole('region', { name: 'Add-ons removed from your projects' }).waitFor();
  return dialog;
}

/** Confirms the downgrade and answers the exit survey, which first demands a reason; returns it. */
async function answerSurvey(page: Page, dialog: Locator, submit: string): Promise<Locator> {
  await dialog.getByRole('button', { name: 'Confirm downgrade' }).click();
  const survey = page.getByRole('dialog', { name: 'Before you downgrade' });
  await survey.getByRole('group', { name: 'Why are you downgrading?' }).waitFor();
  // The last reason is always "None of the above", whatever the shuffle.
  const radios = survey.getByRole('radio');
  expect(await radios.count()).toBe(11);
  expect(await radios.last().getAttribute('value')).toBe('none');
  await survey.getByRole('button', { name: submit }).click();
  await survey.getByRole('alert').filter({ hasText: REASON_REQUIRED }).waitFor();
  expect(await seriousAxeViolations(page)).toEqual([]);
  await survey.getByRole('radio', { name: 'It is too expensive' }).check();
  await survey
    .getByRole('textbox', { name: 'What price would have felt right for what you use?' })
    .fill('Half of it');
  await survey.getByRole('button', { name: submit }).click();
  return survey;
}

describe('acme-pro downgrades to Free', () => {
  const harness = useHarness();

  test('the confirm modal lists the custom domain, the survey demands a reason, then Free', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const feedback = recordWrites(page, '/platform/feedback/downgrade', 'POST');
    const changes = recordWrites(
      page,
      '/platform/organizations/acme-pro/billing/subscription',
      'PUT',
    );
    const previews: number[] = [];
    page.on('response', (response) => {
      if (!response.url().endsWith('/billing/subscription/preview')) return;
      void response
        .json()
        .then((body: { proration_date?: number }) => {
          if (typeof body.proration_date === 'number') previews.push(body.proration_date);
        })
        .catch(() => undefined);
    });
    const dialog = await openDowngradeToFree(page, 'acme-pro');
    // What the change settles today is shown before anything is sent.
    await dialog.getByText('Charged today', { exact: true }).waitFor();

    const project1 = dialog.getByRole('list', { name: 'Add-ons of Acme Pro Project 1' });
    expect(await project1.getByRole('listitem').allInnerTexts()).toEqual(['Custom Domain']);
    // The Micro compute variant is left out of the list (spec §4).
    expect(await dialog.getByText('Micro compute').count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);

    const survey = await answerSurvey(page, dialog, 'Submit and downgrade');
    await toastWith(page, TO_FREE).waitFor();
    await survey.waitFor({ state: 'detached' });

    expect(feedback).toHaveLength(1);
    expect(feedback[0]?.postDataJSON()).toEqual({
      orgSlug: 'acme-pro',
      reasons: '- It is too expensive',
      additionalFeedback: 'Half of it',
      exitAction: 'downgrade',
    });
    // Sent with the proration date of the preview it showed: charged what was shown.
    expect(changes.map((request) => request.postDataJSON() as unknown)).toEqual([
      { tier: 'tier_free', proration_date: previews.at(-1) },
    ]);
    expect((await apiSubscription(page, 'acme-pro')).plan.id).toBe('free');
    await eventually(() =>
      billingSection(page, 'subscription').getByText('Free plan', { exact: true }).count(),
    ).toBe(1);
    // The flow and the panel closed together: focus is back on the link that opened the panel.
    await expectFocusOn(page, changePlanLink(page));
  });
});

describe('crowded-co cannot downgrade to Free while members are at their free project limit', () => {
  const harness = useHarness();

  test('the members modal comes first, before any preview; closing it changes nothing', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const feedback = recordWrites(page, '/platform/feedback/downgrade', 'POST');
    const changes = recordWrites(
      page,
      '/platform/organizations/crowded-co/billing/subscription',
      'PUT',
    );
    const previews = recordWrites(
      page,
      '/platform/organizations/crowded-co/billing/subscription/preview',
      'POST',
    );
    const members = await page.request.get(
      '/platform/organizations/crowded-co/members/reached-free-project-limit',
    );
    expect(members.status()).toBe(200);
    const atLimit = (await members.json()) as { username: string | null; primary_email: string }[];
    expect(atLimit).toHaveLength(2);

    // The free project limit is checked first: "Downgrade to Free" opens on the
    // members who must act, with no preview of a change that cannot be made and no Confirm to click.
    await gotoBilling(page, 'crowded-co');
    await changePlanLink(page).click();
    await page
      .getByRole('dialog', { name: 'Change subscription plan' })
      .getByRole('button', { name: 'Downgrade to Free' })
      .click();
    const modal = page.getByRole('dialog', {
      name: 'Members have reached their free project limit',
    });
    const list = modal.getByRole('list', { name: 'Members at their free project limit' });
    await list.waitFor();
    const shown = await list.getByRole('listitem').allInnerTexts();
    expect(shown).toHaveLength(2);
    for (const member of atLimit) {
      expect(shown.some((text) => text.includes(member.username ?? member.primary_email))).toBe(
        true,
      );
    }
    expect(shown.every((text) => text.includes('Limit of 2 free projects'))).toBe(true);
    // Blocking: no survey, only Close (the focused control).
    expect(await modal.getByRole('radio').count()).toBe(0);
    const close = modal.getByRole('button', { name: 'Close' }).first();
    await expectFocusOn(page, close);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await close.click();
    await modal.waitFor({ state: 'detached' });

    expect(feedback).toEqual([]);
    expect(changes).toEqual([]);
    expect(previews).toEqual([]);
    expect((await apiSubscription(page, 'crowded-co')).plan.id).toBe('pro');
    // The panel stays; focus is back on the button that started the flow.
    const panel = page.getByRole('dialog', { name: 'Change subscription plan' });
    await expectFocusOn(page, panel.getByRole('button', { name: 'Downgrade to Free' }));
  });
});

describe('fly-co schedules its downgrade for the end of the cycle', () => {
  const harness = useHarness();

  test('the date is shown before and after, and the scheduled change can be cancelled', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const before = await apiSubscription(page, 'fly-co');
    const date = shownDate(before.current_period_end);

    const dialog = await openDowngradeToFree(page, 'fly-co');
    await dialog.getByText(`Takes effect on ${date}`, { exact: true }).waitFor();
    await answerSurvey(page, dialog, 'Submit and schedule downgrade');
    await toastWith(page, `Your organization will move to the Free plan on ${date}`).waitFor();

    const scheduled = await apiSubscription(page, 'fly-co');
    expect(scheduled.plan.id).toBe('pro');
    expect(scheduled.scheduled_plan_change).toMatchObject({
      target_plan: 'free',
      at: before.current_period_end,
    });

    // The subscription section states it, and cancels it.
    await gotoBilling(page, 'fly-co');
    const section = billingSection(page, 'subscription');
    await section
      .getByText(`Your organization will move to the Free plan on ${date}`, { exact: true })
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    const cancelled = apiResponse(
      page,
      '/platform/organizations/fly-co/billing/subscription/scheduled-change',
      'DELETE',
    );
    await section.getByRole('button', { name: 'Cancel scheduled change' }).click();
    expect((await cancelled).status()).toBe(200);
    await toastWith(page, 'Cancelled the scheduled move to the Free plan').waitFor();
    await section.getByRole('button', { name: 'Cancel scheduled change' }).waitFor({
      state: 'detached',
    });
    expect((await apiSubscription(page, 'fly-co')).scheduled_plan_change).toBeNull();
  });

  test('a developer sees the scheduled change but cannot cancel it', async () => {
    const owner = await harness().sessionPage('owner@example.com');
    const dialog = await openDowngradeToFree(owner, 'fly-co');
    await answerSurvey(owner, dialog, 'Submit and schedule downgrade');
    await toastWith(owner, 'Your organization will move to the Free plan on').waitFor();

    const page = await harness().sessionPage('developer@example.com');
    await gotoBilling(page, 'fly-co');
    const cancel = billingSection(page, 'subscription').getByRole('button', {
      name: 'Cancel scheduled change',
    });
    expect(await cancel.isDisabled()).toBe(true);
  });
});
