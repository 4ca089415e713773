import { describe, expect, test } from 'vitest';
import { billingSection, dollars, gotoBilling, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The projected total says how it was projected, opens by keyboard, and does not
// move between two reloads.

const harness = useHarness();

/** Integer cents from "$1,234.56" as shown. */
function cents(text: string): number {
  return Math.round(Number(text.replace(/[$,\s]/g, '')) * 100);
}

describe('the projected total', () => {
  test('payg-co: opened by keyboard, its rows add up to the totals shown; a reload shows the same', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const hourOf = () => Math.floor(Date.now() / 3_600_000);
    const firstHour = hourOf();
    await gotoBilling(page, 'payg-co');
    const section = billingSection(page, 'breakdown');
    const toggle = section.getByRole('button', { name: 'How is this projected?' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const details = section.getByRole('region', { name: 'How the projected total is made' });
    await details.waitFor();
    expect(await details.innerText()).toMatch(/hours left in the cycle/);

    const rows = await details
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')),
      );
    const soFar = rows.reduce((sum, [first = '']) => sum + cents(first), 0);
    const projected = rows.reduce((sum, [, second = '']) => sum + cents(second), 0);
    const totalRow = section.locator('tfoot tr');
    const shownTotal = cents(await totalRow.nth(0).locator('td').last().innerText());
    const shownProjected = cents(await totalRow.nth(1).locator('td').last().innerText());
    expect(soFar).toBe(shownTotal);
    expect(projected).toBe(shownProjected);
    expect(await details.locator('tfoot td').last().innerText()).toBe(dollars(projected));
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.reload();
    await gotoBilling(page, 'payg-co');
    const again = cents(
      await billingSection(page, 'breakdown')
        .locator('tfoot tr')
        .nth(1)
        .locator('td')
        .last()
        .innerText(),
    );
    // Unless the reload crossed a whole hour, it projects from the same hour, to the cent.
    if (hourOf() === firstHour) expect(again).toBe(shownProjected);
  });
});
