import { describe, expect, test } from 'vitest';
import {
  ALL_SECTIONS,
  apiResponse,
  billingSection,
  gotoBilling,
  sectionAnchors,
  waitForNotFound,
  useHarness,
} from './support/billing.ts';
import { DEMO_PASSWORD, seriousAxeViolations } from './support/harness.ts';

// The web shell around the billing page. Sign-in and sign-out, the not-found screen,
// partner-managed organizations, restricted projects, the organization switcher and `_`.

const harness = useHarness();

describe('signing in and out', () => {
  test('a signed-out visit to the billing page goes to sign-in, then back after signing in', async () => {
    const page = await harness().newPage();
    await page.goto('/org/acme-pro/billing');
    await page.waitForURL((url) => url.pathname === '/sign-in');
    expect(new URL(page.url()).searchParams.get('returnTo')).toBe('/org/acme-pro/billing');

    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL((url) => url.pathname === '/org/acme-pro/billing');
    await billingSection(page, 'address').waitFor();
    expect(await sectionAnchors(page)).toEqual([...ALL_SECTIONS]);
  });

  test('a wrong password shows the error and starts no session', async () => {
    const page = await harness().newPage();
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill('admin@example.com');
    await page.getByLabel('Password').fill('not-the-password');
    const answer = apiResponse(page, '/platform/auth/sign-in', 'POST');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect((await answer).status()).toBe(401);

    const alert = page.getByRole('alert').filter({ hasText: 'Invalid email or password' });
    await alert.waitFor();
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect((await page.request.get('/platform/profile')).status()).toBe(401);
  });

  test('sign out ends the session', async () => {
    const page = await harness().signedInPage('admin@example.com');
    await gotoBilling(page, 'acme-pro');

    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL((url) => url.pathname === '/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();

    expect((await page.request.get('/platform/profile')).status()).toBe(401);
    await page.goto('/org/acme-pro/billing');
    await page.waitForURL((url) => url.pathname === '/sign-in');
  });
});

describe('the not-found screen', () => {
  test('an organization the user does not belong to is not found, and the API answers 404', async () => {
    const page = await harness().sessionPage('outsider@example.com');
    const organization = apiResponse(page, '/platform/organizations/acme-pro');
    await page.goto('/org/acme-pro/billing');
    expect((await organization).status()).toBe(404);
    await waitForNotFound(page);
    expect(await page.locator('main section[id]').count()).toBe(0);
    expect(await page.getByText('Acme Pro', { exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Head back' }).click();
    await page.waitForURL((url) => url.pathname === '/org/outsider-org');
  });

  test('an unknown route shows it, signed in or not', async () => {
    const signedIn = await harness().sessionPage('owner@example.com');
    await signedIn.goto('/no/such/page');
    await waitForNotFound(signedIn);

    const signedOut = await harness().newPage();
    await signedOut.goto('/org/acme-pro/billing/nothing-here');
    await waitForNotFound(signedOut);
  });
});

describe('partner-managed organizations', () => {
  test('Vercel: the banner, and Manage opens the installation page in a new tab', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const link = apiResponse(page, '/platform/integrations/vercel/installations/icfg_demo123/link');
    await page.goto('/org/vercel_icfg_demo123');
    const banner = page.getByRole('region', { name: 'Partner management' });
    await banner.getByText('This organization is managed by Vercel.', { exact: true }).waitFor();
    expect((await link).status()).toBe(200);

    const manage = banner.getByRole('button', { name: 'Manage' });
    await banner.getByRole('button', { name: 'Manage', disabled: false }).waitFor();
    const [popup] = await Promise.all([page.waitForEvent('popup'), manage.click()]);
    await popup.waitForURL((url) => url.pathname === '/partners/vercel/installations/icfg_demo123');
    await popup.getByRole('heading', { name: 'Vercel integration installation' }).waitFor();
    expect(page.url()).toMatch(/\/org\/vercel_icfg_demo123$/);
  });

  test('AWS Marketplace: the banner, and Manage opens the marketplace page in a new tab', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/org/aws-co/billing');
    const banner = page.getByRole('region', { name: 'Partner management' });
    await banner
      .getByText('This organization is managed by AWS Marketplace.', { exact: true })
      .waitFor();

    await banner.getByRole('button', { name: 'Manage', disabled: false }).waitFor();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      banner.getByRole('button', { name: 'Manage' }).click(),
    ]);
    await popup.waitForURL((url) => url.pathname === '/partners/aws-marketplace/aws-co');
  });

  test('an organization the product manages itself has no banner', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');
    expect(await page.getByRole('region', { name: 'Partner management' }).count()).toBe(0);
    expect(await page.getByText(/This organization is managed by/).count()).toBe(0);
  });
});

describe('projects', () => {
  test('a restricted organization’s project shows the restriction the API answers with 402', async () => {
    const page = await harness().sessionPage('owner@example.com');
    const project = apiResponse(page, '/platform/projects/restrictedco1');
    await page.goto('/project/restrictedco1');
    const answer = await project;
    expect(answer.status()).toBe(402);
    const { message } = (await answer.json()) as { message: string };

    const alert = page.getByRole('alert');
    await alert.getByText('This project is unavailable').waitFor();
    await alert.getByText(message).waitFor();
  });

  test('a healthy project shows its details', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/project/acmepro1');
    await page.getByRole('heading', { level: 1, name: 'Acme Pro Project 1' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
  });
});

describe('moving between organizations', () => {
  test('the organization switcher keeps the billing sub-page', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await gotoBilling(page, 'acme-pro');

    await page.getByRole('button', { name: /Switch organization/ }).click();
    await page.getByRole('link', { name: /^Acme Free/ }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-free/billing');
    await page.getByRole('button', { name: /Current organization: Acme Free/ }).waitFor();
    await billingSection(page, 'address').waitFor();
    expect(await sectionAnchors(page)).not.toContain('breakdown');
  });

  test('the organization switcher keeps the usage sub-page', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/org/acme-pro/usage');
    await page.getByRole('button', { name: /Current organization: Acme Pro/ }).waitFor();

    await page.getByRole('button', { name: /Switch organization/ }).click();
    await page.getByRole('link', { name: /^Acme Team/ }).click();
    await page.waitForURL((url) => url.pathname === '/org/acme-team/usage');
  });

  test('/org/_/billing resolves to the organization visited last, keeping the query', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/org/acme-team');
    // The organization is remembered once it has loaded, not while its page is still a skeleton.
    await page.getByRole('heading', { level: 1, name: /Acme Team/ }).waitFor();

    await page.goto('/org/_/billing?source=fairUseRestricted');
    await page.waitForURL((url) => url.pathname === '/org/acme-team/billing');
    expect(new URL(page.url()).searchParams.get('source')).toBe('fairUseRestricted');
    await billingSection(page, 'address').waitFor();
  });

  test('/org/_/billing resolves to an organization of the user on a first visit', async () => {
    const page = await harness().signedInPage('developer@example.com');
    const profile = (await (await page.request.get('/platform/profile')).json()) as {
      organizations: { slug: string }[];
    };
    const mine = profile.organizations.map((org) => org.slug);

    await page.goto('/org/_/billing');
    await page.waitForURL((url) => /^\/org\/[^_/][^/]*\/billing$/.test(url.pathname));
    const slug = new URL(page.url()).pathname.split('/')[2] ?? '';
    expect(mine).toContain(decodeURIComponent(slug));
    await billingSection(page, 'subscription').waitFor();
  });
});

describe('accessibility', () => {
  test('the sign-in page has no serious or critical axe violations', async () => {
    const page = await harness().newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('the sign-in page with an error has no serious or critical axe violations', async () => {
    const page = await harness().newPage();
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Email').and(page.locator('[aria-invalid="true"]')).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('the not-found screen of an unknown route has no serious or critical axe violations', async () => {
    const page = await harness().sessionPage('owner@example.com');
    await page.goto('/nowhere');
    await waitForNotFound(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  test('the not-found screen of a hidden organization has no serious or critical axe violations', async () => {
    const page = await harness().sessionPage('outsider@example.com');
    await page.goto('/org/acme-pro/billing');
    await waitForNotFound(page);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});
