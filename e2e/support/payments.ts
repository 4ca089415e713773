import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** The simulator's test cards (product-decisions.md §5), as a person types them. */
export const TEST_CARDS = {
  visa: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  /** Asks for 3-D Secure once: when saved, or when paid with unsaved. */
  authenticate: '4000 0025 0000 3155',
  /** Asks for 3-D Secure on every payment, however it was saved. */
  alwaysAuthenticate: '4000 0027 6000 3184',
} as const;

export const DECLINED_MESSAGE = 'Your card was declined.';
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';
export const CARD_ADDED = 'Successfully added new payment method';
export const TOPPED_UP =
  'Successfully topped up balance. It may take a minute to reflect in your account.';

/**
 * Types a card into the simulator's card form inside `scope` ("Card number", "Expiry" as MM / YY,
 * "CVC"), with an expiry three years ahead.
 */
export async function fillCard(scope: Locator, number: string): Promise<void> {
  const year = String((new Date().getFullYear() + 3) % 100).padStart(2, '0');
  await scope.getByLabel('Card number', { exact: true }).fill(number);
  await scope.getByLabel('Expiry', { exact: true }).fill(`12${year}`);
  await scope.getByLabel('CVC', { exact: true }).fill('123');
}

/**
 * On the hosted invoice page: chooses "New card" when the organization's saved cards are offered
 * (they come first, the default chosen), then types the card as `fillCard` does.
 */
export async function fillNewCard(scope: Locator, number: string): Promise<void> {
  await scope.getByRole('button', { name: 'Pay', exact: true }).waitFor();
  const newCard = scope.getByRole('radio', { name: 'New card' });
  if ((await newCard.count()) > 0) await newCard.check();
  await fillCard(scope, number);
}

/** A toast of the page holding this text. */
export function toastWith(page: Page, text: string): Locator {
  return page.locator('[data-sonner-toast]').filter({ hasText: text });
}

/** The simulator's 3-D Secure screen. */
export function challengeDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: "Confirm it's you" });
}

export interface ApiPaymentMethod {
  id: string;
  is_default: boolean;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
}

export interface ApiPaymentMethods {
  data: ApiPaymentMethod[];
  defaultPaymentMethodId: string | null;
}

/** GET /payments (Version 2) with the page's session. */
export async function apiPaymentMethods(page: Page, slug: string): Promise<ApiPaymentMethods> {
  const response = await page.request.get(`/platform/organizations/${slug}/payments`, {
    headers: { version: '2' },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as ApiPaymentMethods;
}

/** The subscription's customer_balance in cents (positive is credit), with the page's session. */
export async function apiCustomerBalance(page: Page, slug: string): Promise<number> {
  const response = await page.request.get(`/platform/organizations/${slug}/billing/subscription`);
  expect(response.status()).toBe(200);
  const { customer_balance } = (await response.json()) as { customer_balance: number };
  return customer_balance;
}

/** Headers for a write sent with the page's session: its CSRF token (decision 003) and JSON. */
export async function writeHeaders(page: Page): Promise<Record<string, string>> {
  const response = await page.request.get('/platform/auth/csrf');
  expect(response.status()).toBe(200);
  const { token } = (await response.json()) as { token: string };
  return { 'x-csrf-token': token, 'content-type': 'application/json' };
}
