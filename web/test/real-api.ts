import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { resetCsrfToken } from '../src/data/api-client';
import { signIn } from '../src/data/sign-in-mutation';

// Strings, not URL objects: under jsdom the global URL is jsdom's, which Node's helpers refuse.
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const API_MAIN = resolve(REPO_ROOT, 'api/src/main.ts');
export const DEMO_PASSWORD = 'billing-demo-2026';

export interface RealApi {
  url: string;
  close(): Promise<void>;
}

/**
 * The real Meterline API, started as `npm run serve` starts it (its own process: the web app never
 * imports the server), on a free port over a fresh embedded database seeded with the demo world.
 */
export async function startRealApi(): Promise<RealApi> {
  const dataDir = mkdtempSync(`${tmpdir()}/meterline-web-test-`);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', API_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      WEB_DIST: '/nonexistent',
      BILLING_JOB_INTERVAL_SECONDS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.kill('SIGTERM');
  process.once('exit', kill);

  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Meterline is running on (http:\/\/[^\s"]+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`the API exited with ${code} before it was ready:\n${output}`)),
    );
  });

  return {
    url,
    async close() {
      process.off('exit', kill);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        kill();
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface ApiTransport {
  /** Every request the app's fetch client made, in order. */
  requests: SentRequest[];
  /** Requests other than GET and HEAD. */
  writes(): SentRequest[];
  /** Signs in through the app's own client, as the sign-in page does. */
  signIn(email: string): Promise<void>;
  restore(): void;
}

/**
 * What the browser gives the app's fetch client and jsdom does not: same-origin paths resolve
 * against the API's address and its cookies are kept and sent back. The client module itself is
 * the real one; every request it makes reaches the real server and is noted for assertions.
 */
export function installApiTransport(baseUrl: string): ApiTransport {
  const original = globalThis.fetch;
  const cookies = new Map<string, string>();
  const requests: SentRequest[] = [];

  globalThis.fetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), baseUrl);
    const headers = new Headers(init.headers);
    if (cookies.size > 0) {
      headers.set('cookie', [...cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    }
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    requests.push({
      method: init.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(headers),
      body,
    });
    // jsdom's AbortSignal is not the one Node's fetch accepts; cancelling is not under test.
    const { signal: _signal, ...rest } = init;
    const response = await original(url, { ...rest, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index);
      const value = pair.slice(index + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(cookie)) cookies.delete(name);
      else cookies.set(name, value);
    }
    return response;
  };
  resetCsrfToken();

  return {
    requests,
    writes: () => requests.filter((request) => !['GET', 'HEAD'].includes(request.method)),
    async signIn(email) {
      await signIn({ email, password: DEMO_PASSWORD });
      requests.length = 0;
    },
    restore() {
      globalThis.fetch = original;
      resetCsrfToken();
    },
  };
}

/**
 * For a test file: the real API for the whole file, and a fresh transport for each test. Call it at the
 * top level; `transport()` is the current test's transport.
 */
export function withRealApi(): () => ApiTransport {
  let api: RealApi | undefined;
  let transport: ApiTransport | undefined;
  beforeAll(async () => {
    api = await startRealApi();
  });
  afterAll(async () => {
    await api?.close();
  });
  beforeEach(() => {
    if (!api) throw new Error('The real API did not start');
    transport = installApiTransport(api.url);
  });
  afterEach(() => {
    transport?.restore();
  });
  return () => {
    if (!transport) throw new Error('No transport outside a test');
    return transport;
  };
}
