import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { useHarness } from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The API reference (/platform/docs) as a reader sees it in Chromium: the schemas read as types (no
// "Unknown Type"), the examples as plausible values (no ±9007199254740991), the curl examples name
// this server, and the page wears the console's colours, light and dark, wide and narrow.

async function openReference(page: Page): Promise<void> {
  await page.goto('/platform/docs/');
  await page.getByRole('heading', { name: /Meterline platform API/ }).waitFor();
  await page.locator('.opblock').first().waitFor();
}

/** Opens an operation (Swagger UI names it by tag and operationId), and its first answer's schema. */
async function openOperation(page: Page, tag: string, operationId: string): Promise<string> {
  const operation = page.locator(`#operations-${tag}-${operationId}`);
  await operation.locator('.opblock-summary-control').click();
  await operation.locator('.highlight-code').first().waitFor();
  const example = await operation.locator('.opblock-body').innerText();
  await operation.locator('.tablinks[data-name="model"]').first().click();
  await operation.locator('.json-schema-2020-12').first().waitFor();
  return `${example}\n${await operation.locator('.opblock-body').innerText()}`;
}

describe('the API reference page', () => {
  const harness = useHarness();

  test('shows real types, plausible examples and this server in its examples', async () => {
    const page = await harness().newPage();
    await openReference(page);
    const base = harness().baseUrl;
    const intro = await page.locator('.info').innerText();
    expect(intro).toContain(`curl -s -c jar -b jar ${base}/platform/auth/csrf`);
    expect(intro).not.toContain('localhost:8080');

    const subscription = await openOperation(page, 'billing', 'getSubscription');
    const upcoming = await openOperation(page, 'billing', 'getUpcomingInvoice');
    const text = `${subscription}\n${upcoming}\n${await page.locator('body').innerText()}`;
    expect(text).not.toContain('Unknown Type');
    expect(text).not.toMatch(/9007199254740991/);
    // A nullable field reads as its type or null; an enum lists its values; a time is a time.
    expect(subscription).toMatch(/string \| null/);
    expect(subscription).toContain('"current_period_end": 1767225600');
    expect(subscription).toContain('"id": "free"');
    expect(page.url()).toContain('/platform/docs');
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      test(`wears the console's look, ${colorScheme} at ${width} px`, async () => {
        const page = await harness().newPage({ colorScheme, width });
        await openReference(page);
        const look = await page.evaluate(() => ({
          dark: document.documentElement.classList.contains('dark-mode'),
          background: getComputedStyle(document.body).backgroundColor,
          font: getComputedStyle(
            document.querySelector('.swagger-ui .info .title') ?? document.body,
          ).fontFamily,
          overflow: document.documentElement.scrollWidth - window.innerWidth,
        }));
        expect(look.dark).toBe(colorScheme === 'dark');
        // The web app's --background token, light or dark.
        expect(look.background).toBe(
          colorScheme === 'dark' ? 'oklch(0.165 0.006 260)' : 'oklch(0.982 0.002 250)',
        );
        expect(look.font).toMatch(/^Inter, -apple-system/);
        // Nothing wider than the screen: wide tables and code scroll inside themselves.
        expect(look.overflow).toBeLessThanOrEqual(0);
        expect(await seriousAxeViolations(page)).toEqual([]);
      });
    }
  }
});
