import { startHarness } from './support/harness.ts';

const h = await startHarness();
const shots: [string, string, string?][] = [
  ['payment-methods-enterprise', '/org/acme-enterprise/billing#payment-methods', 'payment-methods'],
  ['invoices-acme-pro', '/org/acme-pro/billing#invoices', 'invoices'],
  ['usage-payg', '/org/payg-co/usage'],
  ['audit-acme-pro', '/org/acme-pro/audit-log?action=invoice.payment_failed'],
  ['plan-panel-oriole', '/org/oriole-co/billing?panel=subscriptionPlan'],
];
try {
  for (const mode of [
    { name: 'light', options: {} },
    { name: 'dark', options: { colorScheme: 'dark' as const } },
    { name: '375', options: { width: 375, height: 800 } },
  ]) {
    const page = await h.sessionPage('owner@example.com', mode.options);
    for (const [name, path, section] of shots) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(800);
      if (section) {
        await page.locator(`#${section}`).scrollIntoViewIfNeeded().catch(() => undefined);
      }
      await page.screenshot({ path: `/tmp/wt26b-look/${name}-${mode.name}.png` });
    }
  }
  // The usage chart's readout on hover.
  const page = await h.sessionPage('owner@example.com');
  await page.goto('/org/payg-co/usage');
  const chart = page.getByRole('img', { name: /^Egress: daily usage/ });
  await chart.waitFor();
  await chart.scrollIntoViewIfNeeded();
  const box = await chart.boundingBox();
  if (box) await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2);
  await page.waitForTimeout(300);
  await page.screenshot({ path: '/tmp/wt26b-look/usage-hover.png' });
} finally {
  await h.close();
}
