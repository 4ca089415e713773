import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import { configFrom, startServer, type RunningServer } from '../../api/src/index.ts';

const require = createRequire(import.meta.url);

export const DEMO_PASSWORD = 'billing-demo-2026';
// scripts/ensure-chromium.mjs, run before these tests, has checked it (or installed it).
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/**
 * Waits for a real state fail after this long. Pages answer in well under a second; the margin is
 * for a 2-core machine that is busy with other work at the same time.
 */
export const ACTION_TIMEOUT_MS = 15_000;

type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

export interface PageOptions {
  width?: number;
  height?: number;
  colorScheme?: 'light' | 'dark';
}

export interface Harness {
  server: RunningServer;
  browser: Browser;
  baseUrl: string;
  newPage(options?: PageOptions & { storageState?: StorageState }): Promise<Page>;
  /** A fresh context that signs in through the sign-in page: a session of its own. */
  signedInPage(email: string, options?: PageOptions): Promise<Page>;
  /**
   * A fresh context carrying a session of `email` created once per harness (the password hash is
   * deliberately slow). Never sign out in such a page: use signedInPage for that.
   */
  sessionPage(email: string, options?: PageOptions): Promise<Page>;
  /** Uncaught exceptions thrown in any page since the last call; the list is then emptied. */
  takePageErrors(): string[];
  /** Closes every context opened so far (call it after each test); the harness stays up. */
  closeContexts(): Promise<void>;
  /** What the open pages show (address and accessibility tree), to explain a failed test. */
  describePages(): Promise<string>;
  close(): Promise<void>;
}

const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

/**
 * A private copy of the built web app, so that a rebuild of web/dist while the tests run (a
 * colleague's `npm run build`) cannot swap the assets under a page that is loading.
 */
function snapshotWebDist(): string {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(`No built web app in ${WEB_DIST}: run \`npm run build -w web\` first.`);
  }
  const copy = mkdtempSync(join(tmpdir(), 'meterline-e2e-web-'));
  cpSync(WEB_DIST, copy, { recursive: true, filter: (source) => !source.endsWith('.map') });
  return copy;
}

/** The real product: the API serving the built web app over a fresh embedded database, and real Chromium. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const webDist = env.WEB_DIST ?? snapshotWebDist();
  const removeWebDist = () => {
    if (webDist !== env.WEB_DIST) rmSync(webDist, { recursive: true, force: true });
  };
  let server: RunningServer;
  let browser: Browser;
  try {
    server = await startServer({
      config: configFrom({
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'silent',
        WEB_DIST: webDist,
        ...env,
      }),
      inMemory: true,
    });
  } catch (error) {
    removeWebDist();
    throw error;
  }
  try {
    browser = await chromium.launch({
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
  } catch (error) {
    await server.close();
    removeWebDist();
    throw error;
  }
  const contexts: BrowserContext[] = [];
  const pageErrors: string[] = [];
  const sessions = new Map<string, Promise<StorageState>>();
  const newPage: Harness['newPage'] = async (options = {}) => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
      colorScheme: options.colorScheme ?? 'light',
      storageState: options.storageState,
    });
    context.setDefaultTimeout(ACTION_TIMEOUT_MS);
    context.setDefaultNavigationTimeout(ACTION_TIMEOUT_MS * 2);
    context.on('page', (page) =>
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`)),
    );
    contexts.push(context);
    return context.newPage();
  };
  const signedInPage: Harness['signedInPage'] = async (email, options = {}) => {
    const page = await newPage(options);
    await signIn(page, email);
    return page;
  };
  return {
    server,
    browser,
    baseUrl: server.url,
    newPage,
    signedInPage,
    async sessionPage(email, options = {}) {
      let session = sessions.get(email);
      if (!session) {
        session = (async () => {
          const context = await browser.newContext({ baseURL: server.url });
          try {
            const page = await context.newPage();
            await signIn(page, email);
            return await context.storageState();
          } finally {
            await context.close();
          }
        })();
        // A failed sign-in is not remembered: the next test tries again.
        session.catch(() => sessions.delete(email));
        sessions.set(email, session);
      }
      return newPage({ ...options, storageState: await session });
    },
    takePageErrors() {
      return pageErrors.splice(0);
    },
    async describePages() {
      const pages = contexts.flatMap((context) => context.pages());
      const parts = await Promise.all(
        pages.map(async (page) => {
          const tree = await page
            .locator('body')
            .ariaSnapshot({ timeout: 2_000 })
            .catch((error: unknown) => `(no snapshot: ${String(error)})`);
          return `--- ${page.url()}\n${tree.slice(0, 12_000)}`;
        }),
      );
      return parts.join('\n');
    },
    async closeContexts() {
      for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
    },
    async close() {
      for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
      await browser.close();
      await server.close();
      removeWebDist();
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

let axeSource: string | undefined;

/**
 * Runs axe-core in the page and returns the violations of serious or critical impact (of any impact,
 * minor and moderate too, with `every`).
 */
export async function seriousAxeViolations(
  page: Page,
  every = false,
): Promise<{ id: string; help: string; nodes: number }[]> {
  // Evaluated through the debugging protocol, which the page's Content-Security-Policy does not govern:
  // a script tag added to the page would be an inline script that the policy refuses.
  axeSource ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  // A dialog or notice fading in is read at its half-way colours: let finite animations end first
  // (spinners run forever and are left alone).
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  await page.evaluate(axeSource);
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
    .filter(
      (violation) => every || violation.impact === 'serious' || violation.impact === 'critical',
    )
    .map((violation) => ({
      id: violation.id,
      help: violation.help,
      nodes: violation.nodes.length,
    }));
}
