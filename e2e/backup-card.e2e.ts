import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { billingSection, eventually, gotoBilling, shot, useHarness } from './support/billing.ts';
import { ACTION_TIMEOUT_MS, seriousAxeViolations } from './support/harness.ts';
import { toastWith } from './support/payments.ts';

// The backup card in real Chromium against the real server: marked from the card's
// menu, shown with its badge, unmarked again; light, dark and 375 px, with axe on each state.

const harness = useHarness();

/** The viewport, with the cards in it (the menu is a portal beside them). */

function cardRow(section: Locator, last4: string): Locator {
  return section.getByRole('listitem').filter({ hasText: last4 });
}

async function openMenu(page: Page, section: Locator, last4: string): Promise<Locator> {
  await section.getByRole('button', { name: `Manage card ending with ${last4}` }).click();
  const menu = page.getByRole('menu');
  await menu.waitFor();
  return menu;
}

describe('the backup card', () => {
  test('owner: marks the Mastercard as the backup from its menu, sees the badge, and removes the mark', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro', '#payment-methods');
    const section = billingSection(page, 'payment-methods');
    await cardRow(section, '4444').waitFor();
    expect(await section.getByText('Backup', { exact: true }).count()).toBe(0);

    // The default card's item says why it cannot be the backup.
    let menu = await openMenu(page, section, '4242');
    const refused = menu.getByRole('menuitem', { name: /Use as backup/ });
    expect(await refused.getAttribute('aria-disabled')).toBe('true');
    expect(await refused.innerText()).toContain('The default card cannot also be the backup card');
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'hidden' });

    await section.scrollIntoViewIfNeeded();
    menu = await openMenu(page, section, '4444');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'backup-card-menu-light');
    await menu.getByRole('menuitem', { name: /Use as backup/ }).click();
    await toastWith(page, 'The card ending with 4444 is now the backup card').waitFor();
    const mastercard = cardRow(section, '4444');
    await mastercard.getByText('Backup', { exact: true }).waitFor({ timeout: ACTION_TIMEOUT_MS });
    expect(await mastercard.innerText()).toContain('Charged if the default card is declined');
    expect(await cardRow(section, '4242').getByText('Backup', { exact: true }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'backup-card-badge-light');

    // The mark is the server's: a reload shows it.
    await page.reload();
    await cardRow(section, '4444').getByText('Backup', { exact: true }).waitFor();

    menu = await openMenu(page, section, '4444');
    await menu.getByRole('menuitem', { name: /Remove backup/ }).click();
    await toastWith(page, 'The card ending with 4444 is no longer the backup card').waitFor();
    await eventually(() => section.getByText('Backup', { exact: true }).count()).toBe(0);
  });

  test.each([
    ['dark', 1280],
    ['light', 375],
  ] as const)(
    '%s at %i px: the badge and the menu read well, axe clean',
    async (colorScheme, width) => {
      const page = await harness().sessionPage('owner@example.com', {
        colorScheme,
        width,
        height: 800,
      });
      await gotoBilling(page, 'acme-pro', '#payment-methods');
      const section = billingSection(page, 'payment-methods');
      await cardRow(section, '4444').waitFor();
      let menu = await openMenu(page, section, '4444');
      await menu.getByRole('menuitem', { name: /Use as backup/ }).click();
      await cardRow(section, '4444').getByText('Backup', { exact: true }).waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(overflow).toBeLessThanOrEqual(width);
      await section.scrollIntoViewIfNeeded();
      await shot(page, `backup-card-badge-${colorScheme}-${width}`);
      menu = await openMenu(page, section, '4444');
      expect(await seriousAxeViolations(page)).toEqual([]);
      await shot(page, `backup-card-menu-${colorScheme}-${width}`);
      await menu.getByRole('menuitem', { name: /Remove backup/ }).click();
      await eventually(() => section.getByText('Backup', { exact: true }).count()).toBe(0);
    },
  );
});
