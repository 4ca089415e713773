import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/repo-root.ts';
import {
  signInEveryone,
  startTestServer,
  testDatabases,
  type TestServer,
} from './support/server.ts';

// A client made from the served document by third-party tools, as an integrator would make one:
// openapi-typescript writes the types, openapi-fetch makes the requests. The client is compiled by
// tsc (strict) against the generated types, then run against the server with an access token.

/** What the client below reads, as its caller gets it. */
interface BillingRead {
  plan: string;
  periodEnd: number;
  upcomingTotal: number;
  upcomingLines: number;
  invoices: { id: string; status: string; total: number }[];
  invoiceTotal: number | undefined;
  writeStatus: number;
  writeMessage: string | undefined;
}

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function readBilling(baseUrl: string, token: string, slug: string) {
  const client = createClient<paths>({ baseUrl, headers: { authorization: \`Bearer \${token}\` } });
  const path = { slug };
  const subscription = await client.GET('/platform/organizations/{slug}/billing/subscription', {
    params: { path },
  });
  const upcoming = await client.GET('/platform/organizations/{slug}/billing/invoices/upcoming', {
    params: { path },
  });
  const invoices = await client.GET('/platform/organizations/{slug}/billing/invoices', {
    params: { path, query: { limit: 5 } },
  });
  if (!subscription.data || !upcoming.data || !invoices.data) {
    throw new Error('a read was refused: ' + JSON.stringify([subscription.error, upcoming.error, invoices.error]));
  }
  const first = invoices.data[0];
  const detail = first
    ? await client.GET('/platform/organizations/{slug}/billing/invoices/{invoiceId}', {
        params: { path: { slug, invoiceId: first.id } },
      })
    : undefined;
  // A token reads; a write with it is refused, and the error is typed as the document says.
  const write = await client.DELETE('/platform/organizations/{slug}/billing/spend-alert', {
    params: { path },
  });
  return {
    plan: subscription.data.plan.id,
    periodEnd: subscription.data.current_period_end,
    upcomingTotal: upcoming.data.amount_total,
    upcomingLines: upcoming.data.lines.length,
    invoices: invoices.data.map((invoice) => ({
      id: invoice.id,
      status: invoice.status,
      total: invoice.total,
    })),
    invoiceTotal: detail?.data?.total,
    writeStatus: write.response.status,
    writeMessage: write.error?.message,
  };
}
`;

/** tsc over the client and the generated types (a .ts file, so skipLibCheck skips only the packages'), strict; the diagnostics as text. */
function compile(directory: string): string[] {
  const program = ts.createProgram([join(directory, 'client.ts')], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    skipLibCheck: true,
    outDir: directory,
  });
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((diagnostic) =>
    ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  );
}

describe.each(testDatabases())('a client generated from the document (%s)', (database) => {
  let server: TestServer;
  // Inside the repository's node_modules, so the client finds openapi-fetch as an installed one would.
  const directory = join(
    REPO_ROOT,
    'node_modules',
    '.cache',
    `openapi-client-${randomBytes(4).toString('hex')}`,
  );

  beforeAll(async () => {
    server = await startTestServer({ database });
    await mkdir(directory, { recursive: true });
  });
  afterAll(async () => {
    await server?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('compiles with tsc and reads the billing API with an access token', async () => {
    const documentFile = join(directory, 'openapi.json');
    await writeFile(
      documentFile,
      await (await fetch(`${server.url}/platform/openapi.json`)).text(),
    );
    const types = astToString(await openapiTS(pathToFileURL(documentFile)));
    await writeFile(join(directory, 'schema.ts'), types);
    await writeFile(join(directory, 'client.ts'), CLIENT);
    expect(compile(directory)).toEqual([]);

    const as = await signInEveryone(server);
    const created = await as('owner').post<{ secret: string }>(
      '/platform/organizations/acme-pro/tokens',
      { name: 'Generated client', expires_in_days: 7 },
    );
    expect(created.status).toBe(201);
    const client = (await import(pathToFileURL(join(directory, 'client.js')).href)) as {
      readBilling(baseUrl: string, token: string, slug: string): Promise<BillingRead>;
    };
    const read = await client.readBilling(server.url, created.body.secret, 'acme-pro');

    // The same answers the session reads.
    const subscription = await as('owner').get<{
      plan: { id: string };
      current_period_end: number;
    }>('/platform/organizations/acme-pro/billing/subscription');
    const upcoming = await as('owner').get<{ amount_total: number }>(
      '/platform/organizations/acme-pro/billing/invoices/upcoming',
    );
    expect(read.plan).toBe(subscription.body.plan.id);
    expect(read.periodEnd).toBe(subscription.body.current_period_end);
    expect(read.upcomingTotal).toBe(upcoming.body.amount_total);
    expect(read.upcomingLines).toBeGreaterThan(0);
    expect(read.invoices.length).toBeGreaterThan(0);
    expect(read.invoiceTotal).toBe(read.invoices[0]?.total);
    expect(read.writeStatus).toBe(403);
    expect(read.writeMessage).toMatch(/\w/);
  });
});
