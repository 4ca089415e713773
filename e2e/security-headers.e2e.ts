import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { billingSection, gotoBilling, useHarness } from './support/billing.ts';
import { signIn } from './support/harness.ts';
import { challengeDialog, fillNewCard, TEST_CARDS } from './support/payments.ts';

// The product's own pages under the server's Content-Security-Policy, in Chromium. Any
// script, style, frame or connection the policy refuses is reported to the page as a
// securitypolicyviolation event and in the console; both are collected across every navigation.

interface Violation {
  directive: string;
  blocked: string;
  page: string;
}

/** Starts collecting the page's policy violations; call before its first navigation. */
async function watchPolicy(page: Page): Promise<{ violations: Violation[]; console: string[] }> {
  const seen = { violations: [] as Violation[], console: [] as string[] };
  await page.exposeFunction('__reportViolation', (violation: Violation) => {
    seen.violations.push(violation);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportViolation(v: Violation): void })
        .__reportViolation;
      report({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        page: location.pathname,
      });
    });
    interface Violation {
      directive: string;
      blocked: string;
      page: string;
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) {
      seen.console.push(message.text());
    }
  });
  return seen;
}

describe('the content security policy in the browser', () => {
  const harness = useHarness();

  test('the sign-in page and the billing page, light and dark, load with no violation', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await harness().newPage({ colorScheme });
      const seen = await watchPolicy(page);
      const response = await page.goto('/sign-in');
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await signIn(page, 'owner@example.com');
      await gotoBilling(page, 'acme-pro');
      // The inline script in index.html ran (it is allowed by its hash): the theme is on the root.
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
        colorScheme === 'dark',
      );
      await billingSection(page, 'payment-methods')
        .getByRole('button', { name: 'Add new card' })
        .click();
      await page
        .getByRole('dialog', { name: 'Add new card' })
        .getByLabel('Card number', { exact: true })
        .waitFor();
      expect(seen).toEqual({ violations: [], console: [] });
    }
  });

  test('the hosted pay page, through a 3-D Secure challenge, has no violation', async () => {
    const db = harness().server.database.db;
    const invoice = await db
      .selectFrom('invoices')
      .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
      .select('invoices.id')
      .where('organizations.slug', '=', 'acme-pro')
      .where('invoices.status', '=', 'open')
      .executeTakeFirstOrThrow();
    const page = await harness().newPage();
    const seen = await watchPolicy(page);
    await signIn(page, 'owner@example.com');
    await page.goto(`/pay/invoices/${invoice.id}?org=acme-pro`);
    await page.getByText('Amount due', { exact: true }).waitFor();
    await fillNewCard(page.locator('main'), TEST_CARDS.authenticate);
    await page.getByRole('button', { name: 'Pay', exact: true }).click();
    await challengeDialog(page).getByRole('button', { name: 'Complete authentication' }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-pro/billing');
    expect(seen).toEqual({ violations: [], console: [] });
  });

  test("an invoice's PDF opens in the browser's own viewer under the same policy", async () => {
    const page = await harness().sessionPage('owner@example.com');
    const seen = await watchPolicy(page);
    const base = '/platform/organizations/acme-pro/billing/invoices';
    const [newest] = (await (await page.request.get(`${base}?offset=0&limit=1`)).json()) as {
      id: string;
    }[];
    const response = await page.goto(`${base}/${newest?.id ?? ''}/pdf`);
    expect(response?.headers()['content-type']).toBe('application/pdf');
    // Chromium shows a PDF through its viewer extension, framed in a page it makes for the PDF (older
    // versions blanked that page under a policy with object-src 'none', crbug.com/271452).
    await expect
      .poll(() => page.frames().some((frame) => frame.url().startsWith('chrome-extension://')))
      .toBe(true);
    expect(seen).toEqual({ violations: [], console: [] });
  });

  test('the API reference page renders the API with no violation', async () => {
    const page = await harness().newPage();
    const seen = await watchPolicy(page);
    await page.goto('/platform/docs');
    await page.getByRole('heading', { name: /Meterline platform API/ }).waitFor();
    await page.getByText('/platform/auth/sign-in', { exact: true }).first().waitFor();
    expect(seen).toEqual({ violations: [], console: [] });
  });
});
