import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { expectCleanPage, shot, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The audit log page in real Chromium against the real server: a change made in
// another page is the newest entry, its before and after open from the keyboard, the filters narrow the
// list, and the export downloads what is shown.

const harness = useHarness();

async function createToken(page: Page, slug: string, name: string): Promise<void> {
  await page.goto(`/org/${slug}/tokens`);
  await page.getByRole('button', { name: 'Create token' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an access token' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
}

describe('the audit log page', () => {
  test('owner: a change is the newest entry; details by keyboard; filters; export', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await createToken(page, 'acme-pro', 'Auditor spreadsheet');
    await page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Audit log' })
      .click();
    await page.waitForURL((url) => url.pathname === '/org/acme-pro/audit-log');
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    expect(await page.title()).toBe('Audit log · Acme Pro · Meterline');

    const list = page.getByRole('list', { name: 'Audit log entries' });
    const newest = list.getByRole('listitem').first();
    const sentence = 'owner@example.com created the access token "Auditor spreadsheet"';
    await newest.getByText(sentence).waitFor();
    expect(await newest.innerText()).toContain('just now');
    // The engine's own entries are there too, from the demo world's history.
    await list.getByText('The billing job paid invoice').first().waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'audit-log-light', { fullPage: true });

    // The disclosure opens from the keyboard and says what changed.
    const toggle = newest.getByRole('button', { name: sentence });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const details = newest.getByRole('table');
    await details.waitFor();
    expect(await details.innerText()).toMatch(/Name\s+—\s+Auditor spreadsheet/);
    expect(await newest.innerText()).toContain('127.0.0.1');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'audit-log-expanded-light', { fullPage: true });
    await page.keyboard.press('Space');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Filtered to one action: only those entries, and the export follows the filters.
    const form = page.getByRole('form', { name: 'Filter the audit log' });
    await form.getByLabel('Action').selectOption({ label: 'Access token created' });
    await form.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL((url) => url.searchParams.get('action') === 'access_token.created');
    await list.getByRole('listitem').first().getByText(sentence).waitFor();
    await page.getByText('This is the only entry.').waitFor();
    const link = page.getByRole('link', { name: 'Export CSV' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^acme-pro-audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const lines = readFileSync(await download.path(), 'utf8')
      .trim()
      .split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(sentence.replaceAll('"', '""'));

    // An actor who made nothing: the empty state; Clear shows everything again.
    await form.getByLabel('Actor').fill('nobody@example.com');
    await form.getByRole('button', { name: 'Filter' }).click();
    await page.getByText('No entries match these filters').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Clear' }).click();
    await list.getByText(sentence).waitFor();
  });

  test('looks finished in dark mode and at 375 px', async () => {
    const owner = await harness().sessionPage('owner@example.com');
    await createToken(owner, 'acme-team', 'Nightly usage export for the data warehouse');
    for (const options of [
      { colorScheme: 'dark' as const, name: 'audit-log-dark' },
      { width: 375, height: 800, name: 'audit-log-375' },
    ]) {
      const page = await harness().sessionPage('owner@example.com', options);
      await page.goto('/org/acme-team/audit-log');
      const newest = page
        .getByRole('list', { name: 'Audit log entries' })
        .getByRole('listitem')
        .first();
      await newest
        .getByText(
          'owner@example.com created the access token "Nightly usage export for the data warehouse"',
        )
        .waitFor();
      await newest.getByRole('button').first().click();
      await newest.getByRole('table').waitFor();
      await expectCleanPage(page, options.width ?? 1280);
      await shot(page, options.name, { fullPage: true });
    }
  });

  test.each(['developer', 'readonly'])('%s sees the permission notice', async (user) => {
    const page = await harness().sessionPage(`${user}@example.com`);
    await page.goto('/org/acme-pro/audit-log');
    await page
      .getByText("You need additional permissions to view this organization's audit log")
      .waitFor();
    expect(await page.getByRole('link', { name: 'Export CSV' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
