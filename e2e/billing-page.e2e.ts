import { describe, expect, test } from 'vitest';
import {
  afterNextPaint,
  ALL_SECTIONS,
  billingSection,
  CONTACT_OWNER,
  gotoBilling,
  NEED_PERMISSIONS,
  sectionAnchors,
  type SectionAnchor,
  eventually,
  useHarness,
} from './support/billing.ts';
import { seriousAxeViolations } from './support/harness.ts';

// The billing page's frame. Sections in the spec's order with their anchors, the
// no-permission notices per role, the `panel` parameter, small screens, dark mode, axe.

const harness = useHarness();

describe('sections and anchors', () => {
  test('acme-pro shows every section in the spec’s order, each with its anchor and heading', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    expect(await sectionAnchors(page)).toEqual([...ALL_SECTIONS]);
    for (const anchor of ALL_SECTIONS) {
      const heading = billingSection(page, anchor).getByRole('heading', { level: 2 });
      expect(await heading.count(), `#${anchor} has one heading`).toBe(1);
    }
    // The page's own jump links point at the same anchors, in the same order.
    const links = page.getByRole('navigation', { name: 'On this page' }).getByRole('link');
    const hashes = await links.evaluateAll((anchors) =>
      anchors.map((a) => new URL((a as HTMLAnchorElement).href).hash),
    );
    expect(hashes).toEqual(ALL_SECTIONS.map((anchor) => `#${anchor}`));
  });

  test('"On this page" marks the section being read as the page scrolls', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    const nav = page.getByRole('navigation', { name: 'On this page' });
    const current = nav.locator('a[aria-current="location"]');
    await billingSection(page, 'address').getByRole('heading', { level: 2 }).waitFor();
    for (const [anchor, title] of [
      ['invoices', 'Invoices'],
      ['credits-balance', 'Credit balance'],
      ['subscription', 'Subscription plan'],
    ] as const) {
      await billingSection(page, anchor).evaluate((el) =>
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 130),
      );
      await eventually(async () => (await current.count()) === 1 && current.innerText()).toBe(
        title,
      );
    }
  });

  test('acme-free has no upcoming invoice breakdown', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-free');
    await billingSection(page, 'address').waitFor();
    expect(await sectionAnchors(page)).toEqual(
      ALL_SECTIONS.filter((s) => s !== 'breakdown' && s !== 'spend-alerts'),
    );
  });

  test('an anchor in the address scrolls its section into view', async () => {
    const page = await harness().sessionPage('owner@example.com', { height: 500 });
    await gotoBilling(page, 'acme-pro', '#address');
    await eventually(() => billingSection(page, 'address').evaluate(topInViewport)).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  });

  test('?panel=costControl is read: the spend cap panel opens, the page stays at the top even with an anchor', async () => {
    const page = await harness().sessionPage('owner@example.com', { height: 500 });
    // The panel is modal: the page behind it is out of the accessibility tree, so wait for the panel.
    await page.goto('/org/acme-pro/billing?panel=costControl#address');
    await page.getByRole('dialog', { name: 'Spend cap' }).getByRole('radiogroup').waitFor();
    await billingSection(page, 'address').waitFor({ state: 'attached' });
    await afterNextPaint(page);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(new URL(page.url()).searchParams.get('panel')).toBe('costControl');
  });

  test('an unknown panel value is ignored', async () => {
    const page = await harness().sessionPage('owner@example.com', { height: 500 });
    await gotoBilling(page, 'acme-pro', '?panel=nonsense#address');
    await eventually(() => billingSection(page, 'address').evaluate(topInViewport)).toBe(true);
  });
});

describe('the first load', () => {
  // Records, in the page, when each API read was asked for and when its answer came back.
  const RECORD_READS = `
    window.__reads = [];
    const fetchOriginal = window.fetch.bind(window);
    window.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const read = { path: new URL(url, location.href).pathname, asked: performance.now(), answered: null };
      window.__reads.push(read);
      const answer = fetchOriginal(input, init);
      answer.then(() => { read.answered = performance.now(); }, () => { read.answered = performance.now(); });
      return answer;
    };
  `;

  test('asks for every read of the billing page before any answer is back, and for none twice', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.addInitScript(RECORD_READS);
    await gotoBilling(page, 'acme-pro');
    for (const anchor of ALL_SECTIONS) await billingSection(page, anchor).waitFor();
    await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    const reads = await page.evaluate(
      () =>
        (window as unknown as { __reads: { path: string; asked: number; answered: number }[] })
          .__reads,
    );
    const api = reads.filter((read) => read.path.startsWith('/platform/'));
    const paths = api.map((read) => read.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/platform/profile',
        '/platform/organizations',
        '/platform/organizations/acme-pro',
        '/platform/organizations/acme-pro/billing/subscription',
        '/platform/organizations/acme-pro/billing/invoices/upcoming',
        '/platform/organizations/acme-pro/billing/invoices',
        '/platform/organizations/acme-pro/payments',
      ]),
    );
    // Each read is asked for once (the count and the first page share a path: HEAD and GET).
    const counted = new Map<string, number>();
    for (const path of paths) counted.set(path, (counted.get(path) ?? 0) + 1);
    for (const [path, times] of counted) {
      expect(times, path).toBe(
        path === '/platform/organizations/acme-pro/billing/invoices' ? 2 : 1,
      );
    }
    // No read waited for another's answer: every one was asked for before the first answer came back.
    const firstAnswer = Math.min(...api.map((read) => read.answered));
    for (const read of api) expect(read.asked, read.path).toBeLessThan(firstAnswer);
  });
});

describe('the plan’s panels', () => {
  test('load when the pointer reaches the subscription section, not with the page', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await gotoBilling(page, 'acme-pro');
    await billingSection(page, 'address').waitFor();
    const panels = () => scripts.filter((path) => /\/(plan-panel|spend-cap-panel)-/.test(path));
    expect(panels()).toEqual([]);
    await billingSection(page, 'subscription').getByRole('heading', { level: 2 }).hover();
    await eventually(() => panels().length).toBe(2);
  });
});

describe('no-permission notices by role', () => {
  const READ_NOTICE = new RegExp(
    `^${NEED_PERMISSIONS} (view|update this organization's cost control)`,
  );
  const NOTICES: Partial<Record<SectionAnchor, string>> = {
    address: "You need additional permissions to view this organization's billing address",
    'payment-methods':
      "You need additional permissions to view this organization's payment methods",
  };

  test('read-only: address and payment methods show their notices, other sections do not', async () => {
    const page = await harness().sessionPage('readonly@example.com');
    await gotoBilling(page, 'acme-pro');
    expect(await sectionAnchors(page)).toEqual([...ALL_SECTIONS]);

    for (const anchor of ALL_SECTIONS) {
      const section = billingSection(page, anchor);
      const notice = NOTICES[anchor];
      if (notice) {
        await section.getByText(notice, { exact: true }).waitFor();
        await section.getByText(CONTACT_OWNER, { exact: true }).waitFor();
      } else {
        // Write notices (e.g. "...to update billing emails") may show; read notices may not.
        expect(await section.getByText(READ_NOTICE).count(), `#${anchor}`).toBe(0);
      }
    }

    // Loaded again, the page knows the role: it asks for nothing the role may not read.
    const refused: string[] = [];
    page.on('response', (response) => {
      if (response.status() === 403) refused.push(new URL(response.url()).pathname);
    });
    await page.reload();
    await billingSection(page, 'address')
      .getByText(NOTICES.address ?? '')
      .waitFor();
    await eventually(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    expect(refused).toEqual([]);
  });

  test.each(['developer@example.com', 'admin@example.com', 'owner@example.com'])(
    '%s sees no read notices',
    async (email) => {
      const page = await harness().sessionPage(email);
      await gotoBilling(page, 'acme-pro');
      await billingSection(page, 'address').waitFor();
      expect(await page.locator('main').getByText(READ_NOTICE).count()).toBe(0);
    },
  );
});

describe('small screens and dark mode', () => {
  test.each(['acme-pro', 'vercel_icfg_demo123'])(
    '%s billing at 375 px has no horizontal scrolling',
    async (slug) => {
      const page = await harness().sessionPage('owner@example.com', { width: 375, height: 740 });
      await gotoBilling(page, slug);
      await billingSection(page, 'subscription').waitFor();
      await afterNextPaint(page);
      const width = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? Infinity);
      expect(width).toBeLessThanOrEqual(375);
    },
  );

  test('a dark system preference renders the billing page dark', async () => {
    const page = await harness().sessionPage('owner@example.com', { colorScheme: 'dark' });
    await gotoBilling(page, 'acme-pro');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
      'dark',
    );
    expect(await page.evaluate(bodyLuminance)).toBeLessThan(0.2);
  });

  test('choosing Dark in the user menu switches the theme and survives a reload', async () => {
    const page = await harness().sessionPage('owner@example.com', { colorScheme: 'light' });
    await gotoBilling(page, 'acme-pro');
    expect(await page.evaluate(bodyLuminance)).toBeGreaterThan(0.5);

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await eventually(() =>
      page.evaluate(() => getComputedStyle(document.documentElement).colorScheme),
    ).toBe('dark');

    await page.reload();
    await billingSection(page, 'subscription').waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
      'dark',
    );
    expect(await page.evaluate(bodyLuminance)).toBeLessThan(0.2);
  });
});

describe('accessibility', () => {
  test('the billing page (owner) has no serious or critical axe violations', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    await billingSection(page, 'address').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('the billing page in dark mode has no serious or critical axe violations', async () => {
    const page = await harness().sessionPage('owner@example.com', { colorScheme: 'dark' });
    await gotoBilling(page, 'acme-pro');
    await billingSection(page, 'address').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    // The upcoming invoice's toggles change colour under the pointer: readable then too.
    await billingSection(page, 'breakdown').locator('button[aria-expanded]').first().hover();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('a partner-billed billing page has no serious or critical axe violations', async () => {
    const page = await harness().sessionPage('readonly@example.com');
    await gotoBilling(page, 'vercel_icfg_demo123');
    await billingSection(page, 'invoices').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

/** Runs in the page: whether the element's top edge is inside the viewport. */
function topInViewport(element: Element): boolean {
  const { top } = element.getBoundingClientRect();
  return top >= 0 && top < window.innerHeight;
}

/** Runs in the page: the relative luminance (0 black, 1 white) of the page background. */
function bodyLuminance(): number {
  const color = getComputedStyle(document.body).backgroundColor;
  const probe = document.createElement('canvas').getContext('2d');
  if (!probe) return NaN;
  probe.fillStyle = color;
  probe.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = probe.getImageData(0, 0, 1, 1).data;
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}
