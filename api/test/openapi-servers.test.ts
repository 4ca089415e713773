import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from './support/server.ts';

// The document names the server it is read from, in `servers` and in the curl examples of its
// description: the configured public address if there is one, else the request's own origin (through
// a proxy only when TRUST_PROXY names it).

interface Document {
  servers?: { url: string }[];
  info: { description: string };
  paths: Record<string, Record<string, { operationId?: string; summary?: string }>>;
}

/** GET with headers fetch would not send (Host): the document as that request gets it. */
function getDocument(url: string, path: string, headers: Record<string, string>) {
  return new Promise<Document>((done, fail) => {
    const request = http.get(new URL(path, url), { headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => done(JSON.parse(text) as Document));
    });
    request.on('error', fail);
  });
}

const fetchDocument = async (url: string, path = '/platform/openapi.json') =>
  (await (await fetch(`${url}${path}`)).json()) as Document;

describe.each(testDatabases())('the OpenAPI document names its server (%s)', (database) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ database });
  });
  afterAll(() => server?.close());

  it('in servers and in the curl examples, the document and the reference page alike', async () => {
    for (const path of ['/platform/openapi.json', '/platform/docs/json']) {
      const document = await fetchDocument(server.url, path);
      expect(
        document.servers?.map((entry) => entry.url),
        path,
      ).toEqual([server.url]);
      expect(document.info.description).toContain(
        `curl -s ${server.url}/platform/organizations/acme-pro/billing/invoices/upcoming`,
      );
      expect(document.info.description).not.toContain('localhost:8080');
    }
  });

  it('as the client reached it: the Host it sent, and no forwarded address from an untrusted peer', async () => {
    const port = new URL(server.url).port;
    const named = await getDocument(server.url, '/platform/openapi.json', {
      host: `billing.example.test:${port}`,
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example.com',
    });
    expect(named.servers).toEqual([
      { url: `http://billing.example.test:${port}`, description: 'This server' },
    ]);
    // A Host that is no host name is not copied into the document: the server is then relative.
    const odd = await getDocument(server.url, '/platform/openapi.json', {
      host: 'a"b<script>',
    });
    expect(odd.servers?.map((entry) => entry.url)).toEqual(['/']);
    expect(odd.info.description).not.toContain('<script>');
  });

  it('gives every operation a summary and a unique camelCase operationId', async () => {
    const document = await fetchDocument(server.url);
    const ids: string[] = [];
    const missing: string[] = [];
    for (const [url, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.summary?.trim()) missing.push(`${method} ${url}: no summary`);
        if (!/^[a-z][A-Za-z0-9]*$/.test(operation.operationId ?? '')) {
          missing.push(`${method} ${url}: operationId ${operation.operationId}`);
        }
        ids.push(operation.operationId ?? '');
      }
    }
    expect(missing).toEqual([]);
    expect(ids.length).toBeGreaterThan(50);
    expect(new Set(ids).size).toBe(ids.length);
    const billing = document.paths['/platform/organizations/{slug}/billing/subscription'];
    expect(billing?.get?.operationId).toBe('getSubscription');
    const invoices = document.paths['/platform/organizations/{slug}/billing/invoices'];
    expect(invoices?.get?.operationId).toBe('listInvoices');
  });
});

describe('behind a proxy that TRUST_PROXY names', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => server?.close());

  it('names the forwarded origin', async () => {
    const document = await getDocument(server.url, '/platform/openapi.json', {
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'billing.example.com',
    });
    expect(document.servers?.map((entry) => entry.url)).toEqual(['https://billing.example.com']);
    expect(document.info.description).toContain('curl -s https://billing.example.com/platform/');
  });
});

describe('at a configured public address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { PUBLIC_URL: 'https://console.example.com/' } });
  });
  afterAll(() => server?.close());

  it('names PUBLIC_URL, whatever the request', async () => {
    const document = await fetchDocument(server.url);
    expect(document.servers?.map((entry) => entry.url)).toEqual(['https://console.example.com']);
    expect(document.info.description).toContain('https://console.example.com/platform/auth/csrf');
  });
});
