import { describe, expect, test } from 'vitest';
import { expectCleanPage, shot, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The access tokens page in real Chromium against the real server: a token made in the
// page reads the billing API from outside the browser, and stops at once when revoked in the page.

const harness = useHarness();

const readUpcoming = (token: string) =>
  fetch(`${harness().baseUrl}/platform/organizations/acme-pro/billing/invoices/upcoming`, {
    headers: { authorization: `Bearer ${token}` },
  });

describe('the access tokens page', () => {
  test('owner: creates a token, sees it once, uses it with the API, revokes it', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/org/acme-pro');
    await page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Access tokens' })
      .click();
    await page.waitForURL((url) => url.pathname === '/org/acme-pro/tokens');
    await page.getByRole('heading', { level: 1, name: 'Access tokens' }).waitFor();
    await page.getByText('No access tokens').waitFor();
    expect(await page.title()).toBe('Access tokens · Acme Pro · Meterline');
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create an access token' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await dialog.getByText('Name is required').waitFor();
    await dialog.getByLabel('Name').fill('Finance spreadsheet');
    await dialog.getByLabel('Expires after').selectOption({ label: '7 days' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'tokens-create-light', { fullPage: true });
    await dialog.getByRole('button', { name: 'Create token' }).click();

    const created = page.getByRole('dialog', { name: 'Token created' });
    const token = (await created.getByLabel('Access token', { exact: true }).innerText()).trim();
    expect(token).toMatch(/^mlt_/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'tokens-secret-light', { fullPage: true });
    await created.getByRole('button', { name: 'Done' }).click();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Create token');

    // Opened again, the dialog starts empty: no token of the last time.
    await page.getByRole('button', { name: 'Create token' }).click();
    const again = page.getByRole('dialog', { name: 'Create an access token' });
    expect(await again.getByLabel('Name').inputValue()).toBe('');
    expect(await page.content()).not.toContain(token);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Create token');

    const list = page.getByRole('list', { name: 'Access tokens' });
    const row = list.getByRole('listitem').filter({ hasText: 'Finance spreadsheet' });
    await row.waitFor();
    expect(await row.innerText()).toContain(token.slice(0, 12));
    expect(await row.innerText()).toContain('Never used');
    expect(await page.content()).not.toContain(token);

    // The token works from outside the browser, and its use shows once the page looks again.
    expect((await readUpcoming(token)).status).toBe(200);
    await page.reload();
    await row.getByText(/Last used/).waitFor();
    await shot(page, 'tokens-list-light', { fullPage: true });

    await row.getByRole('button', { name: 'Revoke Finance spreadsheet' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this access token?' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Revoke token' }).click();
    await page.getByText('Access token revoked').waitFor();
    await page.getByText('No access tokens').waitFor();
    await page.waitForFunction(() => document.activeElement?.textContent === 'Create token');
    expect((await readUpcoming(token)).status).toBe(401);
  });

  test('looks finished in dark mode and at 375 px', async () => {
    const owner = await harness().sessionPage('owner@example.com');
    await owner.goto('/org/acme-team/tokens');
    await owner.getByRole('button', { name: 'Create token' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Create an access token' });
    await dialog.getByLabel('Name').fill('Nightly usage export for the data warehouse');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    await owner.getByRole('button', { name: 'Done' }).click();

    for (const options of [
      { colorScheme: 'dark' as const, name: 'tokens-dark' },
      { width: 375, height: 800, name: 'tokens-375' },
    ]) {
      const page = await harness().sessionPage('owner@example.com', options);
      await page.goto('/org/acme-team/tokens');
      await page.getByText('Nightly usage export for the data warehouse').waitFor();
      await expectCleanPage(page, options.width ?? 1280);
      await shot(page, options.name, { fullPage: true });
    }
  });

  test.each(['developer', 'readonly'])('%s sees the permission notice', async (user) => {
    const page = await harness().sessionPage(`${user}@example.com`);
    await page.goto('/org/acme-pro/tokens');
    await page
      .getByText("You need additional permissions to manage this organization's access tokens")
      .waitFor();
    expect(await page.getByRole('button', { name: 'Create token' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
