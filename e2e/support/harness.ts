import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { configFrom, startServer, type RunningServer } from '../../api/src/index.ts';

const require = createRequire(import.meta.url);

export const DEMO_PASSWORD = 'billing-demo-2026';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Harness {
  server: RunningServer;
  browser: Browser;
  baseUrl: string;
  newPage(options?: {
    width?: number;
    height?: number;
    colorScheme?: 'light' | 'dark';
  }): Promise<Page>;
  signedInPage(email: string, options?: { width?: number }): Promise<Page>;
  close(): Promise<void>;
}

/** The real product: the API serving the built web app over a fresh embedded database, and real Chromium. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const server = await startServer({
    config: configFrom({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env }),
    inMemory: true,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const contexts: BrowserContext[] = [];
  const newPage: Harness['newPage'] = async (options = {}) => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
      colorScheme: options.colorScheme ?? 'light',
    });
    contexts.push(context);
    return context.newPage();
  };
  return {
    server,
    browser,
    baseUrl: server.url,
    newPage,
    async signedInPage(email, options = {}) {
      const page = await newPage(options);
      await signIn(page, email);
      return page;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
    },
  };
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));
}

/** Runs axe-core in the page and returns the violations of serious or critical impact. */
export async function seriousAxeViolations(
  page: Page,
): Promise<{ id: string; help: string; nodes: number }[]> {
  await page.addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } })
      .axe;
    return (await axe.run()).violations;
    interface AxeViolation {
      id: string;
      help: string;
      impact: string | null;
      nodes: unknown[];
    }
  });
  return results
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.length,
    }));
}
