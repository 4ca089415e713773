import type { Locator, Page, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, type TestContext } from 'vitest';
import { ACTION_TIMEOUT_MS, seriousAxeViolations, startHarness, type Harness } from './harness.ts';

/** The spec's section anchors, in the spec's order (billing-spec.md §2). */
export const ALL_SECTIONS = [
  'subscription',
  'cost-control',
  'spend-alerts',
  'breakdown',
  'invoices',
  'payment-methods',
  'credits-balance',
  'email',
  'address',
] as const;

export type SectionAnchor = (typeof ALL_SECTIONS)[number];

export const CONTACT_OWNER = 'Contact your organization owner or administrator for assistance.';
export const NEED_PERMISSIONS = 'You need additional permissions to';

/** Opens an organization's billing page and waits until its sections are on screen. */
export async function gotoBilling(page: Page, slug: string, suffix = ''): Promise<void> {
  await page.goto(`/org/${slug}/billing${suffix}`);
  await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
  await billingSection(page, 'subscription').waitFor();
}

export function billingSection(page: Page, anchor: SectionAnchor): Locator {
  return page.locator(`main section[id="${anchor}"]`);
}

/** The ids of the sections on the billing page, in document order. */
export function sectionAnchors(page: Page): Promise<string[]> {
  return page.locator('main section[id]').evaluateAll((sections) => sections.map((s) => s.id));
}

/** "$1,234.56" from integer cents, computed here rather than with the product's own formatter. */
export function dollars(cents: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(cents / 100);
}

/** Resolves after the browser has painted the current state (for asserting that nothing moved). */
export async function afterNextPaint(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))),
  );
}

/** The not-found screen of the spec, and its three texts. */
export async function waitForNotFound(page: Page): Promise<void> {
  await page.getByRole('heading', { name: 'Looking for something?' }).waitFor();
  await page.getByText("We couldn't find the page that you're looking for").waitFor();
  await page.getByRole('button', { name: 'Head back' }).waitFor();
}

/** The next response of the page for an API path (exact pathname) and method. */
export function apiResponse(page: Page, pathname: string, method = 'GET'): Promise<Response> {
  return page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === pathname && response.request().method() === method,
  );
}

/** expect.poll with the harness's patience (vitest's default gives up after one second). */
export function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: ACTION_TIMEOUT_MS, interval: 100 });
}

/**
 * After each test: explain a failure with what the pages showed, close the test's contexts, and
 * fail the test if a page threw an uncaught exception.
 */
export async function finishTest(h: Harness | undefined, context: TestContext): Promise<void> {
  if (!h) return;
  if (context.task.result?.state === 'fail') {
    console.warn(`Pages at the failure of "${context.task.name}":\n${await h.describePages()}`);
  }
  await h.closeContexts();
  expect(h.takePageErrors(), 'uncaught exceptions in the page').toEqual([]);
}

/**
 * Starts a harness for the enclosing describe (or file) and gives it to the tests: each test's pages are
 * closed after it (and described when it failed), and the harness stops after the last test.
 */
export function useHarness(env: Record<string, string> = {}): () => Harness {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startHarness(env);
  });
  afterEach(async (context) => {
    await finishTest(h, context);
  });
  afterAll(async () => {
    await h?.close();
  });
  return () => {
    if (!h) throw new Error('the harness did not start');
    return h;
  };
}

/** With E2E_SCREENSHOTS=<folder>, saves the page there as <name>.png, to be looked at (not compared). */
export async function shot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS;
  if (folder) await page.screenshot({ path: `${folder}/${name}.png`, ...options });
}

/** The page passes axe (serious and critical) and nothing runs off its side at `width`. */
export async function expectCleanPage(page: Page, width: number): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

/** An invoice as the API lists it: what a browser test checks against the screen. */
export interface ApiInvoice {
  id: string;
  number: string;
  status: string;
  amount_due: number;
}

/** The organization's newest invoices (up to 50), read with the page's own session. */
export async function apiInvoices(page: Page, slug: string): Promise<ApiInvoice[]> {
  const response = await page.request.get(
    `/platform/organizations/${slug}/billing/invoices?offset=0&limit=50`,
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiInvoice[];
}
