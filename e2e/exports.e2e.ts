import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { billingSection, gotoBilling, useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// Invoices and usage: the Export CSV buttons where the data is shown.

const harness = useHarness();

describe('CSV exports', () => {
  test("acme-pro's invoices download as a CSV of its 13 invoices, and payg-co's usage of the cycle", async () => {
    const page = await harness().sessionPage('readonly@example.com');
    await gotoBilling(page, 'acme-pro');
    const invoices = billingSection(page, 'invoices');
    const link = invoices.getByRole('link', { name: 'Export CSV' });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(download.suggestedFilename()).toMatch(/^acme-pro-invoices-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toMatch(/^number,date,period_start,period_end,status,/);
    expect(lines).toHaveLength(14);
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.goto('/org/payg-co/usage');
    await page.getByRole('heading', { level: 1, name: 'Usage' }).waitFor();
    const usage = page.getByRole('link', { name: 'Export CSV' });
    await usage.waitFor();
    const [usageDownload] = await Promise.all([page.waitForEvent('download'), usage.click()]);
    expect(usageDownload.suggestedFilename()).toMatch(
      /^payg-co-usage-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const usageText = readFileSync(await usageDownload.path(), 'utf8');
    expect(usageText).toMatch(/^\uFEFF?date,project_ref,project_name,metric,usage,unit\r\n/);
    expect(usageText).toContain(',EGRESS,');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
