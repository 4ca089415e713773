import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ACTION_TIMEOUT_MS, seriousAxeViolations } from './support/harness.ts';
import {
  apiResponse,
  billingSection,
  dollars,
  gotoBilling,
  NEED_PERMISSIONS,
  shot,
  useHarness,
} from './support/billing.ts';

// The spend alerts section (budget form) and the banner of a threshold reached,
// in real Chromium against the real server, with axe on each state.

const harness = useHarness();
const PATH = '/platform/organizations/payg-co/billing/spend-alert';

const banner = (page: Page) => page.getByTestId('spend-alert-banner');
/** The spend alert messages written to payg-co's billing recipients so far. */
const alertMail = () =>
  harness()
    .server.database.db.selectFrom('email_outbox')
    .innerJoin('organizations', 'organizations.id', 'email_outbox.organization_id')
    .select(['email_outbox.subject', 'email_outbox.recipient'])
    .where('email_outbox.event', '=', 'spend_alert.triggered')
    .where('organizations.slug', '=', 'payg-co')
    .execute();
/** The level the spend bar shows: its colour, as data. */
const barLevel = (page: Page) =>
  billingSection(page, 'spend-alerts').locator('[data-level]').getAttribute('data-level');

describe('spend alerts', () => {
  test('payg-co: an owner sets a $50 budget, the banner says the threshold reached, and removes it', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'payg-co');
    const section = billingSection(page, 'spend-alerts');
    await section.getByText('No budget is set.', { exact: false }).waitFor();
    expect(await banner(page).count()).toBe(0);

    const budget = section.getByLabel('Monthly budget (USD)');
    const thresholds = section.getByLabel('Alert thresholds (%)');
    expect(await thresholds.inputValue()).toBe('50, 75, 90, 100');

    // The shared rules, with their messages, before anything is sent.
    await budget.fill('0');
    await thresholds.fill('50, 50');
    await section.getByRole('button', { name: 'Set budget' }).click();
    await section
      .getByText('budget must be a whole number of US dollars from 1 to 1,000,000')
      .waitFor();
    await section.getByText('thresholds must not repeat a percentage').waitFor();
    expect(await budget.getAttribute('aria-invalid')).toBe('true');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'spend-alerts-errors');

    await budget.fill('50');
    await thresholds.fill('90, 50, 75, 100');
    const saved = apiResponse(page, PATH, 'PUT');
    await section.getByRole('button', { name: 'Set budget' }).click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Spend alert saved').waitFor({ timeout: ACTION_TIMEOUT_MS });
    const state = (await (await saved).json()) as { spend: number; reached: number[] };
    expect(state.reached).toEqual([50, 75, 90, 100]);
    // A budget set already exceeded sends one message per recipient (for the
    // highest threshold, with the percentage really spent), not one per threshold.
    const used = Math.floor(state.spend / 50);
    expect(used).toBeGreaterThan(100);
    const mail = await alertMail();
    expect(mail.length).toBeGreaterThan(0);
    expect(new Set(mail.map((email) => email.recipient)).size).toBe(mail.length);
    for (const email of mail)
      expect(email.subject).toBe(`PAYG Co: You have used ${used}% of your $50 monthly budget`);

    // The banner at the top: the percentage really spent, with the spend and the budget.
    await banner(page).waitFor();
    await banner(page).getByText(`You have used ${used}% of your $50 monthly budget`).waitFor();
    await section.getByText(`${used}% of the budget used.`).waitFor();
    expect(await barLevel(page)).toBe('over');
    await banner(page)
      .getByText(`${dollars(state.spend)} spent so far`, { exact: false })
      .waitFor();
    expect(await banner(page).textContent()).toContain('against a $50.00 monthly budget');
    // Above the sections.
    const [bannerTop, sectionTop] = await Promise.all([
      banner(page).evaluate((el) => el.getBoundingClientRect().top),
      billingSection(page, 'subscription').evaluate((el) => el.getBoundingClientRect().top),
    ]);
    expect(bannerTop).toBeLessThan(sectionTop);
    expect(await thresholds.inputValue()).toBe('50, 75, 90, 100');
    await section.getByText('Thresholds reached: 50%, 75%, 90%, 100%.').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'spend-alerts-light');

    // A budget the spend has passed 90 % of but not reached: the banner says the real percentage
    // (about 97 %, not "90%") and the bar is amber.
    const budgetAt97 = Math.ceil(state.spend / 97);
    const nearly = Math.floor(state.spend / budgetAt97);
    expect(nearly).toBeGreaterThanOrEqual(90);
    expect(nearly).toBeLessThan(100);
    await budget.fill(String(budgetAt97));
    await section.getByRole('button', { name: 'Save' }).click();
    await banner(page)
      .getByText(`You have used ${nearly}% of your $${budgetAt97} monthly budget`)
      .waitFor();
    expect(await barLevel(page)).toBe('warning');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await shot(page, 'spend-alerts-amber');

    // A budget above the spend: no banner, and the bar calm.
    await budget.fill('1000000');
    await section.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Spend alert saved').last().waitFor({ timeout: ACTION_TIMEOUT_MS });
    await banner(page).waitFor({ state: 'detached' });
    expect(await barLevel(page)).toBe('under');

    await budget.fill('50');
    await section.getByRole('button', { name: 'Save' }).click();
    await banner(page).waitFor();
  });

  test('dark and at 375 px the banner and form read and fit', async () => {
    for (const options of [{ colorScheme: 'dark' as const }, { width: 375, height: 800 }]) {
      const page = await harness().sessionPage('owner@example.com', options);
      await gotoBilling(page, 'payg-co');
      await banner(page).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(options.width ?? 1280);
      await shot(page, options.width ? 'spend-alerts-375' : 'spend-alerts-dark-banner');
      await billingSection(page, 'spend-alerts').scrollIntoViewIfNeeded();
      await shot(page, options.width ? 'spend-alerts-375-form' : 'spend-alerts-dark');
    }
  });

  test('a developer sees the budget read only, with the permission notice, and the banner', async () => {
    const page = await harness().sessionPage('developer@example.com');
    await gotoBilling(page, 'payg-co');
    const section = billingSection(page, 'spend-alerts');
    await section.getByText(`${NEED_PERMISSIONS} update spend alerts`, { exact: false }).waitFor();
    expect(await section.getByLabel('Monthly budget (USD)').inputValue()).toBe('50');
    expect(await section.getByLabel('Monthly budget (USD)').isDisabled()).toBe(true);
    expect(await section.getByRole('button', { name: 'Remove budget' }).count()).toBe(0);
    await banner(page).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('the owner removes the budget: the banner goes', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'payg-co');
    const section = billingSection(page, 'spend-alerts');
    await banner(page).waitFor();
    const removed = apiResponse(page, PATH, 'DELETE');
    await section.getByRole('button', { name: 'Remove budget' }).click();
    expect((await removed).status()).toBe(204);
    await page.getByText('Budget removed: no more spend alerts').waitFor();
    await banner(page).waitFor({ state: 'detached' });
    await section.getByText('No budget is set.', { exact: false }).waitFor();
  });
});
