import type { Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { billingSection, eventually, gotoBilling, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The billing console by keyboard (focus back to what opened a dialog, the
// payment tooltip, the skip link, "On this page"), titles per route, the organization switcher's
// filter and scrolling, and read-only values drawn as values.

const harness = useHarness();

async function expectFocusOn(page: Page, target: Locator): Promise<void> {
  await eventually(() => target.evaluate((element) => element === document.activeElement)).toBe(
    true,
  );
}

/** What has focus, for a failure's message: its role or tag and its name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element) return 'nothing';
    const name = element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '';
    return `${element.tagName.toLowerCase()} ${name.slice(0, 60)}`;
  });
}

/** Opens with the keyboard, closes with `close`, and expects focus back on the opener. */
async function roundTrip(
  page: Page,
  opener: Locator,
  dialogName: string,
  close: (dialog: Locator) => Promise<void>,
): Promise<void> {
  await opener.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.waitFor();
  // Focus went into the dialog.
  await eventually(() =>
    dialog.evaluate((element) => element.contains(document.activeElement)),
  ).toBe(true);
  await close(dialog);
  await dialog.waitFor({ state: 'detached' });
  await expectFocusOn(page, opener);
}

const escape = (page: Page) => async () => {
  await page.keyboard.press('Escape');
};

describe('closing a dialog gives focus back to the control that opened it', () => {
  test("Top Up, Add new card and a card menu's Delete, closed by Escape, Cancel or Close", async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const topUp = billingSection(page, 'credits-balance').getByRole('button', { name: 'Top Up' });
    const addCard = billingSection(page, 'payment-methods').getByRole('button', {
      name: 'Add new card',
    });

    await roundTrip(page, topUp, 'Top up credits', escape(page));
    await roundTrip(page, topUp, 'Top up credits', async (dialog) => {
      await dialog.getByLabel('Amount').waitFor();
      expect(await seriousAxeViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    });
    await roundTrip(page, addCard, 'Add new card', escape(page));
    await roundTrip(page, addCard, 'Add new card', async (dialog) => {
      await dialog.getByRole('button', { name: 'Close' }).click();
    });

    // The delete confirmation opens from a menu item, which goes with its menu: focus returns to the
    // menu's button.
    const menuButton = billingSection(page, 'payment-methods').getByRole('button', {
      name: 'Manage card ending with 4444',
    });
    for (const close of [
      escape(page),
      (dialog: Locator) => dialog.getByRole('button', { name: 'Cancel' }).click(),
    ]) {
      await menuButton.focus();
      await page.keyboard.press('Enter');
      // Each key once its step has happened: an early Enter would make the card the default.
      await expectFocusOn(page, page.getByRole('menuitem', { name: 'Make default' }));
      await page.keyboard.press('ArrowDown');
      await expectFocusOn(page, page.getByRole('menuitem', { name: /Use as backup/ }));
      await page.keyboard.press('ArrowDown');
      await expectFocusOn(page, page.getByRole('menuitem', { name: /Delete/ }));
      await page.keyboard.press('Enter');
      // The brand once: "Mastercard", not "the Mastercard card".
      const dialog = page.getByRole('dialog', { name: 'Delete the Mastercard ending in 4444?' });
      await dialog.waitFor();
      await close(dialog);
      await dialog.waitFor({ state: 'detached' });
      await expectFocusOn(page, menuButton);
    }
  });
});

describe('keyboard paths through the billing page', () => {
  test('"Skip to content" is the first tab stop, shows itself, and moves focus to main', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    // Out of sight until it has focus.
    expect((await skip.boundingBox())?.y ?? 0).toBeLessThan(0);

    await page.keyboard.press('Tab');
    await expectFocusOn(page, skip);
    await eventually(async () => (await skip.boundingBox())?.y ?? -1).toBeGreaterThanOrEqual(0);
    // Of any impact: axe knows it for a skip link (its target exists), outside any landmark.
    expect(await seriousAxeViolations(page, true)).toEqual([]);

    await page.keyboard.press('Enter');
    await expectFocusOn(page, page.locator('main'));
    // The next Tab is in the page, past the header's links.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement)),
      await focused(page),
    ).toBe(true);
  });

  test('"On this page" comes right after the header, and a jump takes focus into the section', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const nav = page.getByRole('navigation', { name: 'On this page' });
    const first = nav.getByRole('link', { name: 'Subscription plan' });

    const stops: string[] = [];
    const tabs = await page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link')
      .count();
    for (let step = 0; step < 8 + tabs; step += 1) {
      await page.keyboard.press('Tab');
      stops.push(await focused(page));
      if (await first.evaluate((element) => element === document.activeElement)) break;
    }
    // Skip link, logo, switcher, user menu, the organization's tabs (Projects, Billing, Usage, …), then
    // the page's own links: no control of a section comes first.
    expect(stops.at(-1), stops.join(' | ')).toBe('a Subscription plan');
    expect(stops.length).toBeLessThanOrEqual(4 + tabs + 1);

    await page.keyboard.press('Tab');
    await expectFocusOn(page, nav.getByRole('link', { name: 'Cost control' }));
    await page.keyboard.press('Enter');
    await expectFocusOn(page, billingSection(page, 'cost-control'));
    await page.keyboard.press('Tab');
    await expectFocusOn(page, page.getByRole('link', { name: 'Change spend cap' }));
  });

  test("the outstanding invoice's payment tooltip opens by keyboard", async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const hint = billingSection(page, 'invoices')
      .getByRole('button', { name: 'About this payment' })
      .first();
    await hint.waitFor();
    // Reached with Tab (from the control before it), not a pointer.
    await hint.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expectFocusOn(page, hint);
    const tooltip = page.getByRole('tooltip');
    await tooltip
      .getByText(/We were not able to collect the payment/)
      .first()
      .waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await tooltip.waitFor({ state: 'detached' });
  });
});

describe('titles', () => {
  test('each route names itself in the one <title>', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const expectTitle = async (title: string) => {
      await eventually(() => page.title()).toBe(title);
      // The document's, in its head (charts' SVG titles are not the page's).
      expect(await page.locator('title:not(svg title)').count()).toBe(1);
    };
    await gotoBilling(page, 'acme-pro');
    await expectTitle('Billing · Acme Pro · Meterline');
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await expectTitle('Usage · Acme Pro · Meterline');
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await expectTitle('Acme Pro · Meterline');
    await page.goto('/project/acmepro1');
    await expectTitle('Acme Pro Project 1 · Meterline');
    await page.goto('/no/such/page');
    await expectTitle('Page not found · Meterline');
  });
});

describe('the organization switcher', () => {
  test('filters the organizations, moves by arrow keys, and shows that its list scrolls', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const all = (await (await page.request.get('/platform/organizations')).json()) as unknown[];
    await page.getByRole('button', { name: /Switch organization/ }).click();
    const switcher = page.getByRole('dialog', { name: 'Switch organization' });
    const filter = switcher.getByRole('searchbox', { name: 'Find organization' });
    await expectFocusOn(page, filter);
    const links = switcher.getByRole('list', { name: 'Organizations' }).getByRole('link');
    expect(await links.count()).toBe(all.length);
    expect(await seriousAxeViolations(page)).toEqual([]);

    // More below than shows: the list scrolls, and its bottom edge fades.
    const list = switcher.getByRole('list', { name: 'Organizations' });
    const fade = (edge: string) =>
      switcher.locator(`[data-scroll-fade="${edge}"]`).evaluate((element) => {
        return getComputedStyle(element).opacity;
      });
    expect(await list.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(
      true,
    );
    await eventually(() => fade('bottom')).toBe('1');
    expect(await fade('top')).toBe('0');
    await list.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    await eventually(() => fade('top')).toBe('1');
    await eventually(() => fade('bottom')).toBe('0');

    await filter.fill('grace');
    expect(await links.allTextContents()).toEqual([expect.stringContaining('Grace Co')]);
    await switcher.getByText('1 of', { exact: false }).waitFor();
    await page.keyboard.press('ArrowDown');
    await expectFocusOn(page, links.first());
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/org/grace-co/billing');
    await switcher.waitFor({ state: 'detached' });

    await page.getByRole('button', { name: /Switch organization/ }).click();
    await switcher.getByRole('searchbox').fill('no such organization');
    await switcher.getByText('No organization matches “no such organization”.').waitFor();
  });

  test('a member of one organization gets the list without a filter', async () => {
    const page = await harness().sessionPage('outsider@example.com');
    await page.goto('/org/outsider-org');
    await page.getByRole('button', { name: /Switch organization/ }).click();
    const switcher = page.getByRole('dialog', { name: 'Switch organization' });
    await switcher.getByRole('link', { name: /Outsider Org/ }).waitFor();
    expect(await switcher.getByRole('searchbox').count()).toBe(0);
  });
});

describe('read-only forms', () => {
  test('show their values in the text colour, not placeholder grey', async () => {
    const page = await harness().sessionPage('developer@example.com');
    await gotoBilling(page, 'acme-pro');
    const address = billingSection(page, 'address');
    const city = address.getByLabel('City', { exact: true });
    await eventually(() => city.inputValue()).toBe('Dublin');
    expect(await city.isDisabled()).toBe(true);
    const looks = (field: Locator) =>
      field.evaluate((element) => {
        const style = getComputedStyle(element);
        return { color: style.color, opacity: style.opacity };
      });
    const text = await page
      .getByRole('heading', { level: 1, name: 'Billing' })
      .evaluate((element) => getComputedStyle(element).color);
    expect(await looks(city)).toEqual({ color: text, opacity: '1' });
    expect(await looks(address.getByLabel('Country', { exact: true }))).toEqual({
      color: text,
      opacity: '1',
    });
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
