import { createServer, type IncomingHttpHeaders } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { verifySignature } from '../api/src/services/webhooks/signature.ts';
import { expectCleanPage, shot, useHarness } from './support/billing.ts';
import { ACTION_TIMEOUT_MS, seriousAxeViolations } from './support/harness.ts';

// The webhooks page in real Chromium against the real server, delivering to a
// real receiver on loopback (any address is allowed outside production mode), with axe on each state.

const harness = useHarness({ WEBHOOK_INTERVAL_SECONDS: '1' });

const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"received":true}');
  });
});
let receiverUrl = '';
beforeAll(async () => {
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/meterline`;
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe('the webhooks page', () => {
  test('owner: adds an endpoint, sees the secret once, sends a test event, sees the delivery and resends it', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/org/acme-pro');
    await page
      .getByRole('navigation', { name: 'Organization' })
      .getByRole('link', { name: 'Webhooks' })
      .click();
    await page.waitForURL((url) => url.pathname === '/org/acme-pro/webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByText('No webhook endpoints').waitFor();
    expect(await page.title()).toBe('Webhooks · Acme Pro · Meterline');
    expect(await seriousAxeViolations(page)).toEqual([]);

    const opener = page.getByRole('button', { name: 'Add endpoint' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.waitFor();
    // Nothing chosen: the form names both problems.
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await dialog.getByText('Endpoint URL is required').waitFor();
    await dialog.getByText('Events to send must name at least one event type').waitFor();
    await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
    await dialog.getByLabel('invoice.paid').check();
    await dialog.getByLabel('invoice.finalized').check();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'webhooks-add-light', { fullPage: true });
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();

    const added = page.getByRole('dialog', { name: 'Endpoint added' });
    const secret = (await added.getByLabel('Signing secret', { exact: true }).innerText()).trim();
    expect(secret).toMatch(/^whsec_/);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'webhooks-secret-light', { fullPage: true });
    await added.getByRole('button', { name: 'Done' }).click();
    await added.waitFor({ state: 'hidden' });
    // Focus back on the opener ("Add endpoint" in the header).
    // Radix gives focus back a tick after the dialog unmounts.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Add endpoint');
    // Shown once: the page holds it no more, nor does a reload.
    const card = page.getByRole('group', { name: receiverUrl });
    await card.waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await card.waitFor();
    expect(await page.content()).not.toContain(secret);
    expect(await card.innerText()).toContain('invoice.paid');

    await card.getByRole('button', { name: 'Send test event' }).click();
    const deliveries = card.getByRole('list', { name: 'Deliveries' });
    await deliveries.getByText('Succeeded').waitFor({ timeout: ACTION_TIMEOUT_MS });
    expect(received).toHaveLength(1);
    const [first] = received;
    expect(
      verifySignature(secret, first?.headers['meterline-signature'] as string, first?.body ?? ''),
    ).toBe(true);
    expect(JSON.parse(first?.body ?? '').type).toBe('webhook.test');
    const row = await deliveries.innerText();
    expect(row).toContain('HTTP 200');
    expect(row).toMatch(/\d+ ms/);
    expect(row).toContain('{"received":true}');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await shot(page, 'webhooks-delivery-light', { fullPage: true });

    await deliveries.getByRole('button', { name: /^Resend webhook.test/ }).click();
    await deliveries.getByText(/^2$/).waitFor({ timeout: ACTION_TIMEOUT_MS });
    expect(received).toHaveLength(2);
    expect(JSON.parse(received[1]?.body ?? '').id).toBe(JSON.parse(first?.body ?? '').id);

    // Rotate: a new secret, shown once; focus back on "Rotate secret".
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = page.getByRole('dialog', { name: 'New signing secret' });
    const next = (await rotated.getByLabel('Signing secret', { exact: true }).innerText()).trim();
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await rotated.getByRole('button', { name: 'Done' }).click();
    await rotated.waitFor({ state: 'hidden' });
    // Radix gives focus back a tick after the dialog unmounts.
    await page.waitForFunction(() => document.activeElement?.textContent === 'Rotate secret');
    // The replaced secret still signs for 24 hours, and the card says until when.
    await card.getByText(/^The previous signing secret stays valid until /).waitFor();

    // Disable, then delete with a confirmation.
    await card.getByRole('switch').click();
    await card.getByText('Disabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook endpoint?' });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No webhook endpoints').waitFor();
    // The card (and the button that opened the dialog) is gone: focus goes to "Add endpoint".
    await page.waitForFunction(() => document.activeElement?.textContent === 'Add endpoint');
  });

  test('looks finished in dark mode and at 375 px', async () => {
    const owner = await harness().sessionPage('owner@example.com');
    await owner.goto('/org/acme-team/webhooks');
    await owner.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = owner.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.getByLabel('Endpoint URL').fill(receiverUrl);
    await dialog.getByLabel('credits.topped_up').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await owner.getByRole('button', { name: 'Done' }).click();
    const card = owner.getByRole('group', { name: receiverUrl });
    await card.getByRole('button', { name: 'Send test event' }).click();
    await card.getByRole('list', { name: 'Deliveries' }).getByText('Succeeded').waitFor();

    for (const options of [
      { colorScheme: 'dark' as const, name: 'webhooks-dark' },
      { width: 375, height: 800, name: 'webhooks-375' },
    ]) {
      const page = await harness().sessionPage('owner@example.com', options);
      await page.goto('/org/acme-team/webhooks');
      const shown = page.getByRole('group', { name: receiverUrl });
      await shown.getByRole('button', { name: 'Deliveries' }).click();
      await shown.getByRole('list', { name: 'Deliveries' }).getByText('Succeeded').waitFor();
      await expectCleanPage(page, options.width ?? 1280);
      await shot(page, options.name, { fullPage: true });
    }
  });

  test.each(['developer', 'readonly'])('%s sees the permission notice', async (user) => {
    const page = await harness().sessionPage(`${user}@example.com`);
    await page.goto('/org/acme-pro/webhooks');
    await page
      .getByText("You need additional permissions to manage this organization's webhooks")
      .waitFor();
    expect(await page.getByRole('button', { name: 'Add endpoint' }).count()).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
