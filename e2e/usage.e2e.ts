import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { billingSection, eventually, gotoBilling, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The usage page. Each metric against its quota with a daily chart and the
// per-project breakdown, the warning from 80% of a quota (limited or billed beyond), units, one
// project at a time, axe.

interface ApiUsageRecord {
  metric: string;
  usage: number;
  pricing_free_units: number;
  available_in_plan: boolean;
  project_allocations: { ref: string; name: string; usage: number }[];
}

const harness = useHarness();

async function apiUsage(page: Page, slug: string): Promise<Map<string, ApiUsageRecord>> {
  const response = await page.request.get(`/platform/organizations/${slug}/usage`);
  expect(response.status()).toBe(200);
  const { usages } = (await response.json()) as { usages: ApiUsageRecord[] };
  return new Map(usages.map((record) => [record.metric, record]));
}

/** "61.00 GB" from bytes, computed here rather than with the product's own formatter. */
function gigabytes(bytes: number): string {
  const value = (bytes / 1e9).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${value} GB`;
}

async function gotoUsage(page: Page, slug: string, query = ''): Promise<void> {
  await page.goto(`/org/${slug}/usage${query}`);
  await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
  await page.getByRole('group', { name: 'Egress', exact: true }).waitFor();
}

describe('the usage page', () => {
  test('the billing page links to it; each metric shows against its quota, day by day and by project', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    await billingSection(page, 'breakdown').getByRole('link', { name: 'View usage' }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-pro/usage');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();

    const usage = await apiUsage(page, 'acme-pro');
    const egress = usage.get('EGRESS');
    if (!egress) throw new Error('acme-pro has no egress record');
    const card = page.getByRole('group', { name: 'Egress', exact: true });
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toContain(gigabytes(egress.usage));
    expect(text).toContain(`of ${gigabytes(egress.pricing_free_units)} included`);
    await card.getByRole('img', { name: /^Egress: daily usage from / }).waitFor();
    const breakdown = card.getByRole('list');
    const shown = egress.project_allocations.filter((allocation) => allocation.usage > 0);
    expect(shown.length).toBeGreaterThan(1);
    await eventually(() => breakdown.getByRole('listitem').count()).toBe(shown.length);
    for (const allocation of shown) {
      expect(await breakdown.innerText()).toContain(allocation.name);
    }
    // Disk quotas carry their units.
    if (usage.get('DISK_SIZE_GB_HOURS_GP3')?.available_in_plan) {
      expect(await page.getByRole('group', { name: 'Disk Size GP3' }).innerText()).toMatch(
        /of [\d,.]+ GB-hours included/,
      );
    }
    // Well within its quotas: no warning anywhere.
    expect(await page.getByText(/^You have used/).count()).toBe(0);
  });

  test('warns from 80% of a quota, whether usage past it is limited or billed', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoUsage(page, 'limits-co');
    const limited = page.getByRole('group', { name: 'Egress', exact: true });
    await limited.getByText(/^Egress is limited: \d+% of the included quota is used$/).waitFor();
    expect(await limited.innerText()).toContain(
      'this service is limited until the next billing cycle',
    );

    await gotoUsage(page, 'payg-co');
    const billed = page.getByRole('group', { name: 'Egress', exact: true });
    await billed.getByText(/^You have used \d+% of the included Egress$/).waitFor();
    expect(await billed.innerText()).toContain(
      'Usage beyond the quota is billed at the plan’s rates.',
    );
  });

  test('narrowed to one project, it says the totals stay the organization’s', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoUsage(page, 'acme-pro');
    await page.getByLabel('Project').selectOption('acmepro1');
    await page.waitForURL((url) => url.searchParams.get('projectRef') === 'acmepro1');
    await page
      .getByText(
        'Totals and quotas are the organization’s; the charts and the breakdown show the selected project.',
      )
      .waitFor();
    const breakdown = page.getByRole('group', { name: 'Egress', exact: true }).getByRole('list');
    await eventually(() => breakdown.getByRole('listitem').count()).toBe(1);
    expect(await breakdown.innerText()).toContain('Acme Pro Project 1');
  });

  test('has no axe violations of any impact, light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await harness().sessionPage('owner@example.com', { colorScheme });
      await gotoUsage(page, 'acme-pro');
      await page.getByRole('img', { name: /^Egress: daily usage from / }).waitFor();
      expect(await seriousAxeViolations(page, true), colorScheme).toEqual([]);
    }
    const page = await harness().sessionPage('owner@example.com');
    await gotoUsage(page, 'limits-co');
    await page
      .getByText(/ is limited: /)
      .first()
      .waitFor();
    expect(await seriousAxeViolations(page, true)).toEqual([]);
  });
});
