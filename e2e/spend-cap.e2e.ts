import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { ACTION_TIMEOUT_MS, seriousAxeViolations } from './support/harness.ts';
import { billingSection, gotoBilling, shot, useHarness } from './support/billing.ts';

// The spend cap panel (?panel=costControl) and the restriction banners that lead to it,
// in real Chromium against the real server, with axe on each state.

const harness = useHarness();

function panel(page: Page) {
  return page.getByRole('dialog', { name: 'Spend cap' });
}

describe('the spend cap panel', () => {
  test('acme-pro: opened from the cost control section, turned off and on again, focus back on the opener', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const section = billingSection(page, 'cost-control');
    const opener = section.getByRole('link', { name: 'Change spend cap' });
    await opener.click();
    const dialog = panel(page);
    await dialog.getByRole('radiogroup', { name: 'Choose the spend cap' }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'spend-cap-panel-light');

    await dialog.getByText('Spend cap off', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Successfully disabled spend cap').waitFor({ timeout: ACTION_TIMEOUT_MS });
    await dialog.waitFor({ state: 'hidden' });
    await section.getByText('Off', { exact: true }).waitFor();
    expect(new URL(page.url()).searchParams.get('panel')).toBeNull();
    // Focus is back on the link that opened the panel: Enter opens it again.
    await page.waitForFunction(
      () =>
        document.activeElement?.getAttribute('href') === '/org/acme-pro/billing?panel=costControl',
    );

    await page.keyboard.press('Enter');
    await dialog.getByRole('radiogroup').waitFor();
    await dialog.getByText('Spend cap on', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Successfully enabled spend cap').waitFor({ timeout: ACTION_TIMEOUT_MS });
    await section.getByText('On', { exact: true }).waitFor();
  });

  test('payg-co: turning the cap on issues an invoice of exactly the overage the upcoming invoice showed', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'payg-co');
    const upcoming = billingSection(page, 'breakdown');
    const amountOf = async (name: string) => {
      const row = upcoming.getByRole('row').filter({ has: page.getByRole('cell', { name }) });
      const text = (await row.getByRole('cell').last().textContent()) ?? '';
      return Math.round(Number(text.replace(/[$,]/g, '')) * 100);
    };
    await upcoming.getByRole('row').first().waitFor();
    // The capped overage lines the demo world shows for payg-co (spend cap off).
    const overage = [
      await amountOf('Egress'),
      await amountOf('Database Size'),
      await amountOf('Monthly Active Users'),
    ];
    expect(overage.every((cents) => cents > 0)).toBe(true);
    const total = overage.reduce((sum, cents) => sum + cents, 0);

    await billingSection(page, 'cost-control')
      .getByRole('link', { name: 'Change spend cap' })
      .click();
    const dialog = panel(page);
    await dialog.getByText('Spend cap on', { exact: true }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('Successfully enabled spend cap').waitFor({ timeout: ACTION_TIMEOUT_MS });

    const invoices = billingSection(page, 'invoices');
    const dollars = `$${(total / 100).toFixed(2)}`;
    await invoices.getByRole('row').filter({ hasText: dollars }).first().waitFor();
    // The upcoming invoice has no capped overage any more.
    await upcoming.getByRole('cell', { name: 'Egress' }).waitFor({ state: 'detached' });
    await shot(page, 'payg-co-after-cap-on');
  });

  test('dark and 375 px: the panel fits and passes axe', async () => {
    const page = await harness().sessionPage('owner@example.com', {
      width: 375,
      height: 800,
      colorScheme: 'dark',
    });
    // The panel is modal: the page behind it is hidden from the accessibility tree.
    await page.goto('/org/payg-co/billing?panel=costControl');
    const dialog = panel(page);
    await dialog.getByRole('radiogroup').waitFor();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'spend-cap-panel-dark-375');
  });

  test('a developer sees why Confirm is disabled', async () => {
    const page = await harness().sessionPage('developer@example.com');
    await page.goto('/org/acme-pro/billing?panel=costControl');
    const dialog = panel(page);
    // The reason at the top of the panel, visible, and the choice not offered.
    await dialog
      .getByText('You do not have permission to update spend cap', { exact: true })
      .filter({ visible: true })
      .first()
      .waitFor();
    expect(await dialog.getByRole('radio', { name: /Spend cap off/ }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'spend-cap-developer');
  });
});

describe('the restriction banners lead to the right panel', () => {
  const CASES = [
    ['limits-co', 'Upgrade plan', 'subscriptionPlan', null],
    ['grace-co', 'Upgrade plan', 'subscriptionPlan', 'fairUseGracePeriodStarted'],
    ['fairuse-co', 'Upgrade plan', 'subscriptionPlan', 'fairUseGracePeriodOver'],
  ] as const;
  for (const [slug, action, panelName, source] of CASES) {
    test(`${slug}: "${action}" opens ?panel=${panelName}${source ? ` with source ${source}` : ''}`, async () => {
      const page = await harness().sessionPage('owner@example.com');
      await gotoBilling(page, slug);
      const banner = page.getByRole('region', { name: 'Usage limits' });
      await banner.waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `banner-${slug}`);
      const dark = await harness().sessionPage('owner@example.com', { colorScheme: 'dark' });
      await gotoBilling(dark, slug);
      await dark.getByRole('region', { name: 'Usage limits' }).waitFor();
      expect(await seriousAxeViolations(dark)).toEqual([]);
      await shot(dark, `banner-${slug}-dark`);
      await banner.getByRole('link', { name: action }).click();
      const url = new URL(page.url());
      expect(url.searchParams.get('panel')).toBe(panelName);
      expect(url.searchParams.get('source')).toBe(source);
    });
  }
});
