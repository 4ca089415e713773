import {
  accessTokenCreatedSchema,
  hasPermission,
  operationPermission,
  tokenScopeAllows,
  type Permission,
  type Role,
} from '@meterline/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import { NOT_FOUND_ORG } from '../src/lib/failure.ts';
import { demoExamples, operations } from './support/openapi-examples.ts';
import {
  requestsFor,
  type GeneratedRequest,
  type OpenApiDocument,
  type Operation,
} from './support/openapi-requests.ts';
import { testDatabases, useSignedInServer, type TestClient } from './support/server.ts';

// The role matrix, generated from the API document. Every operation of an organization
// is called by each role of the demo world, by a signed-in stranger and by no one, and answers exactly as
// product decisions §2 (kept once in the domain: `hasPermission`) says: allowed, 403, 404 or 401. A refused
// write changes nothing: every GET of the organization answers the same before and after them all.
// An operation added later is covered without editing this file; one whose permission the matrix does not
// know fails it. An access token (scope billing:read) is one more caller: its organization's reads that
// its scope covers are allowed, everything else there is 403, and another organization's token is 404.

const KEY = 'test-metering-key-0123456789';
const ROLE_OF: Record<string, Role> = {
  owner: 'owner',
  admin: 'administrator',
  developer: 'developer',
  readonly: 'read_only',
};
const WRITES = new Set(['post', 'put', 'patch', 'delete']);

interface Case {
  at: string;
  operation: Operation;
  request: GeneratedRequest;
  /** What §2 (the domain's list) says the operation needs; null when it does not place it. */
  permission: Permission | null;
  /** What the server declares in the document. */
  declared: string | undefined;
}

describe.each(testDatabases())('the role matrix, from the API document (%s)', (database) => {
  // A clock that stands still: the GETs of the organization answer the same unless something changed.
  const clock = fixedClock(new Date());
  const { server, as } = useSignedInServer({ database, clock, env: { METERING_API_KEY: KEY } });
  let cases: Case[];

  beforeAll(async () => {
    const document = (await as('owner').get<OpenApiDocument>('/platform/openapi.json')).body;
    const invoices = await as('owner').get<{ id: string }[]>(
      '/platform/organizations/acme-pro/billing/invoices',
    );
    const examples = demoExamples(invoices.body[0]?.id, clock.now());
    cases = operations(document)
      .filter(([url]) => url.startsWith('/platform/organizations/{slug}'))
      .map(([url, method, operation]) => {
        const at = `${method.toUpperCase()} ${url}`;
        return {
          at,
          operation,
          request: requestsFor(document, url, method, operation, examples).valid,
          permission: operationPermission(at),
          declared: operation['x-permission'],
        };
      });
  });

  const send = (client: TestClient | null, request: GeneratedRequest) =>
    (client ?? server().client()).request<{ message?: string } | string>(
      request.method,
      request.path,
      request.body,
      request.headers,
    );

  /** A request with an access token alone (no cookie, no CSRF header). */
  const sendWithToken = async (token: string, request: GeneratedRequest) => {
    const answer = await server()
      .client()
      .request<{ message?: string } | string>(
        request.method,
        request.path,
        request.body,
        { ...request.headers, authorization: `Bearer ${token}` },
        { csrf: false },
      );
    return answer;
  };

  /** A new token of an organization, used once (its last use is then set, and stays: the clock stands). */
  async function tokenOf(slug: string): Promise<string> {
    const answer = await as('owner').post(`/platform/organizations/${slug}/tokens`, {
      name: `Role matrix ${Math.random().toString(36).slice(2, 8)}`,
      expires_in_days: 7,
    });
    const { secret } = accessTokenCreatedSchema.parse(answer.body);
    await sendWithToken(secret, {
      method: 'GET',
      path: `/platform/organizations/${slug}/billing/subscription`,
      headers: {},
      body: undefined,
    });
    return secret;
  }

  /** Every GET of acme-pro, as its owner sees it. */
  async function snapshot(): Promise<Map<string, unknown>> {
    const seen = new Map<string, unknown>();
    for (const { at, request } of cases) {
      if (request.method.toUpperCase() !== 'GET') continue;
      const response = await send(as('owner'), request);
      seen.set(at, [response.status, response.body]);
    }
    return seen;
  }

  it('places every operation of an organization, and the server declares what §2 says', () => {
    expect(cases.length).toBeGreaterThan(30);
    const problems = cases
      .filter((entry) => entry.permission === null || entry.declared !== entry.permission)
      .map((entry) =>
        entry.permission === null
          ? `${entry.at}: not in the domain's ORGANIZATION_OPERATIONS`
          : `${entry.at}: declares ${String(entry.declared)}, §2 says ${entry.permission}`,
      );
    expect(problems).toEqual([]);
  });

  it('refuses exactly whom the matrix refuses (401, 404, 403), and a refused write changes nothing', async () => {
    const token = await tokenOf('acme-pro');
    const strangersToken = await tokenOf('acme-team');
    const before = await snapshot();
    const problems: string[] = [];
    for (const { at, request, permission } of cases) {
      if (permission === null) continue;
      const foreign = await sendWithToken(strangersToken, request);
      if (foreign.status !== 404) problems.push(`${at} acme-team's token: ${foreign.status}`);
      if (!tokenScopeAllows('billing:read', request.method, permission)) {
        const refused = await sendWithToken(token, request);
        if (refused.status !== 403) problems.push(`${at} token: ${refused.status}, not 403`);
      }
      const anonymous = await send(null, request);
      if (anonymous.status !== 401) problems.push(`${at} anonymous: ${anonymous.status}`);
      const stranger = await send(as('outsider'), request);
      if (stranger.status !== 404) problems.push(`${at} outsider: ${stranger.status}`);
      for (const [user, role] of Object.entries(ROLE_OF)) {
        if (hasPermission(role, permission)) continue;
        const refused = await send(as(user), request);
        if (refused.status !== 403) problems.push(`${at} ${user}: ${refused.status}, not 403`);
      }
    }
    expect(problems).toEqual([]);
    expect(Object.fromEntries(await snapshot())).toEqual(Object.fromEntries(before));
  });

  it('lets through exactly whom the matrix allows', async () => {
    const problems: string[] = [];
    // Reads first, then writes: a write allowed to the owner may change what a later read answers.
    const ordered = [...cases].sort(
      (a, b) =>
        Number(WRITES.has(a.request.method.toLowerCase())) -
        Number(WRITES.has(b.request.method.toLowerCase())),
    );
    const token = await tokenOf('acme-pro');
    for (const { at, request, permission } of ordered) {
      if (permission === null) continue;
      const callers: [string, () => ReturnType<typeof send>][] = Object.entries(ROLE_OF)
        .filter(([, role]) => hasPermission(role, permission))
        .map(([user]) => [user, () => send(as(user), request)]);
      if (tokenScopeAllows('billing:read', request.method, permission)) {
        callers.unshift(['token', () => sendWithToken(token, request)]);
      }
      for (const [user, call] of callers) {
        const allowed = await call();
        const message = typeof allowed.body === 'object' ? allowed.body.message : undefined;
        if (
          allowed.status === 401 ||
          allowed.status === 403 ||
          allowed.status >= 500 ||
          (allowed.status === 404 && message === NOT_FOUND_ORG)
        ) {
          problems.push(`${at} ${user}: ${allowed.status} ${message ?? ''}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
