import type { Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  apiResponse,
  billingSection,
  eventually,
  gotoBilling,
  useHarness,
} from './support/billing.ts';
import {} from './support/harness.ts';

// Billing address, tax ID and billing email recipients on acme-pro. The demo world gives
// acme-pro the billing name "Acme Pro Inc.", a Dublin address and the Irish VAT number IE9826471FA.

const CUSTOMER = '/platform/organizations/acme-pro/customer';
const TAX_IDS = '/platform/organizations/acme-pro/tax-ids';
const ORGANIZATION = '/platform/organizations/acme-pro';

const harness = useHarness();

/** Every write the page sends to the given API paths, as "METHOD /path". */
function recordWrites(page: Page, paths: string[]): string[] {
  const writes: string[] = [];
  page.on('request', (request: Request) => {
    const { pathname } = new URL(request.url());
    if (request.method() !== 'GET' && request.method() !== 'HEAD' && paths.includes(pathname)) {
      writes.push(`${request.method()} ${pathname}`);
    }
  });
  return writes;
}

/** The address form, once the saved customer profile has filled it in. */
async function openAddressForm(page: Page) {
  await gotoBilling(page, 'acme-pro');
  const address = billingSection(page, 'address');
  const name = address.getByLabel('Name', { exact: true });
  await eventually(() => name.inputValue()).not.toBe('');
  return { address, name };
}

describe('Billing address & tax ID', () => {
  test('as owner: a new name and an EU VAT number without its prefix persist, prefixed', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const writes = recordWrites(page, [CUSTOMER, TAX_IDS]);
    const { address, name } = await openAddressForm(page);
    expect(await name.inputValue()).toBe('Acme Pro Inc.');
    const taxId = address.getByLabel('Tax ID', { exact: true });
    expect(await taxId.inputValue()).toBe('IE9826471FA');

    await name.fill('Acme Pro Europe Ltd.');
    await taxId.fill('6388047V');
    // The update is PUT; the API accepts PATCH with the same body (product-decisions.md §7).
    const customerSaved = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === CUSTOMER &&
        ['PUT', 'PATCH'].includes(response.request().method()),
    );
    const taxIdSaved = apiResponse(page, TAX_IDS, 'PUT');
    await address.getByRole('button', { name: 'Save' }).click();
    expect((await customerSaved).status()).toBe(200);
    expect((await taxIdSaved).status()).toBe(200);
    await page.getByText('Successfully updated billing data').waitFor();
    // The spec's order: the customer profile first, then the tax ID.
    expect(writes).toHaveLength(2);
    expect(writes[0]).toMatch(new RegExp(`^(PUT|PATCH) ${CUSTOMER}$`));
    expect(writes[1]).toBe(`PUT ${TAX_IDS}`);

    await page.reload();
    const reloaded = billingSection(page, 'address');
    const reloadedName = reloaded.getByLabel('Name', { exact: true });
    await eventually(() => reloadedName.inputValue()).not.toBe('');
    expect(await reloadedName.inputValue()).toBe('Acme Pro Europe Ltd.');
    expect(await reloaded.getByLabel('Tax ID', { exact: true }).inputValue()).toBe('IE6388047V');
    expect(await reloaded.getByLabel('City', { exact: true }).inputValue()).toBe('Dublin');

    const stored = (await (await page.request.get(TAX_IDS)).json()) as {
      tax_id: { type: string; value: string; country: string } | null;
    };
    expect(stored.tax_id).toMatchObject({ type: 'eu_vat', value: 'IE6388047V', country: 'IE' });
  });

  test('a two-letter name shows the rule and sends nothing', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const writes = recordWrites(page, [CUSTOMER, TAX_IDS]);
    const { address, name } = await openAddressForm(page);

    await name.fill('Ab');
    await address.getByRole('button', { name: 'Save' }).click();
    await address.getByText('Name must be at least 3 letters long', { exact: true }).waitFor();
    expect(writes).toEqual([]);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
  });

  test('Save and Cancel are enabled only by a change, and Cancel restores the saved values', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const writes = recordWrites(page, [CUSTOMER, TAX_IDS]);
    const { address } = await openAddressForm(page);
    const save = address.getByRole('button', { name: 'Save' });
    const cancel = address.getByRole('button', { name: 'Cancel' });
    const city = address.getByLabel('City', { exact: true });
    const saved = await city.inputValue();
    expect(await save.isDisabled()).toBe(true);
    expect(await cancel.isDisabled()).toBe(true);

    await city.fill('Cork');
    await address.getByRole('button', { name: 'Save', disabled: false }).waitFor();
    expect(await cancel.isEnabled()).toBe(true);

    await cancel.click();
    await eventually(() => city.inputValue()).toBe(saved);
    await address.getByRole('button', { name: 'Save', disabled: true }).waitFor();
    expect(writes).toEqual([]);
  });

  test('as developer the form is disabled with the spec’s message', async () => {
    const page = await harness().sessionPage('developer@example.com');
    const { address, name } = await openAddressForm(page);

    await address
      .getByText("You need additional permissions to manage this organization's billing address")
      .waitFor();
    expect(await name.isDisabled()).toBe(true);
    expect(await address.getByLabel('Tax ID', { exact: true }).isDisabled()).toBe(true);
    expect(await address.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  });

  test('clearing the tax ID deletes it on the server', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const { address } = await openAddressForm(page);
    const taxId = address.getByLabel('Tax ID', { exact: true });
    expect(await taxId.inputValue()).not.toBe('');

    await address.getByRole('button', { name: /clear/i }).click();
    expect(await taxId.inputValue()).toBe('');
    const deleted = apiResponse(page, TAX_IDS, 'DELETE');
    await address.getByRole('button', { name: 'Save' }).click();
    const answer = await deleted;
    expect(answer.ok()).toBe(true);
    expect(answer.request().headers()['version']).toBe('2');
    await page.getByText('Successfully updated billing data').waitFor();

    const stored = (await (await page.request.get(TAX_IDS)).json()) as { tax_id: unknown };
    expect(stored.tax_id).toBeNull();
    await page.reload();
    const reloaded = await openAddressForm(page);
    expect(await reloaded.address.getByLabel('Tax ID', { exact: true }).inputValue()).toBe('');
  });
});

describe('Email recipients', () => {
  test('an additional email "bad" is refused with the spec’s message', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const writes = recordWrites(page, [ORGANIZATION]);
    await gotoBilling(page, 'acme-pro');
    const email = billingSection(page, 'email');
    const additional = email.getByLabel('Additional emails', { exact: true });

    await additional.fill('bad');
    await additional.press('Enter');
    const message = email.getByText('"bad" is not a valid email address', { exact: true });
    // Shown as soon as the tag is made, or at the latest when saving is tried.
    const save = email.getByRole('button', { name: 'Save' });
    if (!(await message.isVisible()) && (await save.isEnabled())) await save.click();
    await message.waitFor();
    expect(writes).toEqual([]);
  });

  test('an added recipient is saved and still there after a reload', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const email = billingSection(page, 'email');
    await email.getByText('finance@acme.example.com').first().waitFor();
    const additional = email.getByLabel('Additional emails', { exact: true });

    await additional.fill('ap@acme.example.com');
    await additional.press('Enter');
    const saved = apiResponse(page, ORGANIZATION, 'PATCH');
    await email.getByRole('button', { name: 'Save' }).click();
    expect((await saved).status()).toBe(200);

    await page.reload();
    const reloaded = billingSection(page, 'email');
    await reloaded.getByText('ap@acme.example.com').first().waitFor();
    await reloaded.getByText('finance@acme.example.com').first().waitFor();
    const organization = (await (await page.request.get(ORGANIZATION)).json()) as {
      additional_billing_emails: string[];
    };
    expect(organization.additional_billing_emails).toContain('ap@acme.example.com');
  });

  test('as developer the recipients cannot be changed', async () => {
    const page = await harness().sessionPage('developer@example.com');
    await gotoBilling(page, 'acme-pro');
    const email = billingSection(page, 'email');
    await email.getByText('You need additional permissions to update billing emails').waitFor();
    expect(await email.getByLabel('Additional emails', { exact: true }).isDisabled()).toBe(true);
    expect(await email.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
  });
});
