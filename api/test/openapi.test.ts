import { PERMISSIONS, tokenScopeAllows, type Permission } from '@meterline/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoExamples, operations } from './support/openapi-examples.ts';
import {
  requestsFor,
  resolve,
  type GeneratedRequest,
  type JsonSchema,
  type OpenApiDocument,
  type Operation,
} from './support/openapi-requests.ts';
import {
  testDatabases,
  useSignedInServer,
  type TestClient,
  type TestResponse,
} from './support/server.ts';

const KEY = 'test-metering-key-0123456789';
const SAFE = new Set(['get', 'head']);
/** Strings a client sends back as ids, tokens or keys: each must carry the pattern of its issuer. */
const ID_NAME = /(^id$|_id$|Id$|^slug$|^ref$|Ref$|_ref$|secret|token|Token|-key$)/;

/** Every schema reachable from `schema`, with its property path, once per $ref. */
function* walk(
  document: OpenApiDocument,
  schema: JsonSchema,
  path: string,
  seen = new Set<string>(),
): Generator<[string, JsonSchema]> {
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return;
    seen.add(schema.$ref);
  }
  const resolved = resolve(document, schema);
  yield [path, resolved];
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    yield* walk(document, property, `${path}.${name}`, seen);
  }
  if (resolved.items) yield* walk(document, resolved.items, `${path}[]`, seen);
  for (const branch of [
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    if (branch.type !== 'null') yield* walk(document, branch, path, seen);
  }
}

/** What a client sends: each operation's parameters and body, with the name of each field. */
function* requestFields(document: OpenApiDocument): Generator<[string, JsonSchema]> {
  for (const [url, method, operation] of operations(document)) {
    const at = `${method.toUpperCase()} ${url}`;
    for (const parameter of operation.parameters ?? []) {
      yield* walk(document, parameter.schema, `${at} ${parameter.in} ${parameter.name}`);
    }
    const body = operation.requestBody?.content['application/json']?.schema;
    if (body) yield* walk(document, body, `${at} body`);
  }
}

describe.each(testDatabases())('the API document tells the truth (%s)', (database) => {
  const { server, as } = useSignedInServer({ database, env: { METERING_API_KEY: KEY } });
  let document: OpenApiDocument;

  beforeAll(async () => {
    const response = await server().client().get<OpenApiDocument>('/platform/openapi.json');
    expect(response.status).toBe(200);
    document = response.body;
  });

  it('says who may call each operation: its security (or none) and its permission', () => {
    const schemes = Object.keys(document.components.securitySchemes).sort();
    expect(schemes).toEqual([
      'accessToken',
      'csrfToken',
      'operatorKey',
      'session',
      'stripeSignature',
    ]);
    for (const [url, method, operation] of operations(document)) {
      const at = `${method} ${url}`;
      expect(Array.isArray(operation.security), at).toBe(true);
      const used = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      for (const scheme of used) expect(schemes, at).toContain(scheme);
      const permission = operation['x-permission'];
      if (url.startsWith('/platform/organizations/{slug}')) {
        expect(PERMISSIONS, at).toContain(permission);
        expect(used, at).toContain('session');
      } else {
        expect(permission, at).toBe('none');
      }
      if (url.startsWith('/internal/')) expect(used, at).toEqual(['operatorKey']);
      // An access token is offered exactly where its scope reads (the domain decides).
      const readable =
        url.startsWith('/platform/organizations/{slug}') &&
        tokenScopeAllows('billing:read', method, permission as Permission);
      expect(used.includes('accessToken'), at).toBe(readable);
      if (used.includes('session') && !SAFE.has(method)) expect(used, at).toContain('csrfToken');
    }
    const pay = document.paths['/platform/organizations/{slug}/billing/invoices/{invoiceId}/pay'];
    expect(pay?.post?.['x-permission']).toBe('billing_write:subscriptions');
    expect(document.paths['/platform/auth/csrf']?.get?.security).toEqual([]);
    expect(document.paths['/platform/webhooks/stripe']?.post?.security).toEqual([
      { stripeSignature: [] },
    ]);
  });

  it('bounds what a client sends: ids have a pattern, strings a length, numbers a range', () => {
    const problems: string[] = [];
    for (const [path, schema] of requestFields(document)) {
      const name = path.split(/[ .]/).at(-1)?.replace('[]', '') ?? '';
      if (schema.type === 'string' && !schema.enum) {
        if (schema.maxLength === undefined) problems.push(`${path}: no maxLength`);
        if (ID_NAME.test(name) && !schema.pattern) problems.push(`${path}: an id without pattern`);
      }
      if (schema.type === 'integer' || schema.type === 'number') {
        if (schema.minimum === undefined || schema.maximum === undefined) {
          problems.push(`${path}: no minimum or maximum`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives every integer of the document, sent or answered, a minimum and a maximum', () => {
    const problems: string[] = [];
    const roots: [string, JsonSchema][] = Object.entries(document.components.schemas);
    for (const [url, method, operation] of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          roots.push([
            `${method} ${url} ${status} ${name}`,
            (header as { schema: JsonSchema }).schema,
          ]);
        }
      }
    }
    for (const [root, schema] of roots) {
      for (const [path, found] of walk(document, schema, root)) {
        if (
          found.type === 'integer' &&
          (found.minimum === undefined || found.maximum === undefined)
        ) {
          problems.push(path);
        }
      }
    }
    for (const [path, schema] of requestFields(document)) {
      if (schema.type === 'integer' && schema.maximum === undefined) problems.push(path);
    }
    expect(problems).toEqual([]);
  });

  it('states the rules the server has: the optional address, the top-up amount, the email, the offset', () => {
    const schemas = document.components.schemas;
    expect(schemas.CustomerUpdate?.required).toEqual(['billing_name']);
    expect(schemas.TopUpRequest?.properties?.amount).toMatchObject({
      type: 'integer',
      minimum: 100,
      maximum: 2000,
    });
    expect(schemas.OrganizationUpdate?.properties?.billing_email?.format).toBe('email');
    const list = document.paths['/platform/organizations/{slug}/billing/invoices'];
    const offset = list?.get?.parameters?.find((parameter) => parameter.name === 'offset');
    // offset + limit stays within PostgreSQL's integer.
    expect((offset?.schema.maximum ?? Infinity) + 100).toBeLessThanOrEqual(2 ** 31 - 1);
    for (const method of ['head', 'get'] as const) {
      expect(Object.keys(list?.[method]?.responses['200']?.headers ?? {})).toEqual([
        'X-Total-Count',
      ]);
    }
  });

  it('documents the errors each operation can answer', () => {
    for (const [url, method, operation] of operations(document)) {
      const at = `${method} ${url}`;
      const statuses = Object.keys(operation.responses);
      const used = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      if (!SAFE.has(method))
        expect(statuses, at).toEqual(expect.arrayContaining(['400', '413', '415']));
      if (operation.parameters?.length) expect(statuses, at).toContain('400');
      if (used.includes('session') || used.includes('operatorKey'))
        expect(statuses, at).toContain('401');
      if (used.includes('csrfToken')) expect(statuses, at).toContain('403');
      if (operation['x-permission'] !== 'none') {
        expect(statuses, at).toEqual(expect.arrayContaining(['403', '404']));
      }
      if (url.includes('{')) expect(statuses, at).toContain('414');
    }
    for (const [url, method] of [
      ['/platform/auth/sign-in', 'post'],
      ['/platform/captcha', 'post'],
    ] as const) {
      const tooMany = document.paths[url]?.[method]?.responses['429'];
      expect(Object.keys(tooMany?.headers ?? {}), url).toEqual(['Retry-After']);
    }
  });

  it('answers the statuses it adds as the server does: 413, 414, 415 and 429, each with a message', async () => {
    const webhook = (contentType: string, body: string) =>
      fetch(`${server().url}/platform/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body,
      });
    const tooLarge = await webhook(
      'application/json',
      JSON.stringify({ pad: 'x'.repeat(1 << 20) }),
    );
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ message: expect.any(String) });
    const wrongType = await webhook('application/xml', '<event/>');
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toMatchObject({ message: expect.any(String) });
    const longSlug = await as('owner').get<{ message: string }>(
      `/platform/organizations/${'a'.repeat(201)}`,
    );
    expect(longSlug.status).toBe(414);
    const atBound = await as('owner').get<{ message: string }>(
      `/platform/organizations/${'a'.repeat(101)}`,
    );
    expect(atBound).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/Slug/) },
    });
    let tooMany: TestResponse | undefined;
    for (let attempt = 0; attempt < 6 && tooMany?.status !== 429; attempt += 1) {
      tooMany = await server().client().post('/platform/auth/sign-in', {
        email: 'nobody@example.com',
        password: 'wrong',
      });
    }
    expect(tooMany?.status).toBe(429);
    expect(tooMany?.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  describe('requests generated from the document', () => {
    let examples: Record<string, unknown>;

    beforeAll(async () => {
      const invoices = await as('owner').get<{ id: string }[]>(
        '/platform/organizations/acme-pro/billing/invoices',
      );
      examples = demoExamples(invoices.body[0]?.id);
    });

    /** The client the operation's security asks for: sign-out ends its own session, not the owner's. */
    function clientFor(url: string): TestClient {
      return as(url === '/platform/auth/sign-out' ? 'outsider' : 'owner');
    }

    async function send(operation: Operation, url: string, request: GeneratedRequest) {
      const headers = { ...request.headers };
      const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
      if (schemes.includes('operatorKey')) headers.authorization = `Bearer ${KEY}`;
      return clientFor(url).request<{ message?: string }>(
        request.method,
        request.path,
        request.body,
        headers,
      );
    }

    /** The valid request passes the captcha too (a token is single use, so each gets its own). */
    async function withCaptcha(request: GeneratedRequest): Promise<GeneratedRequest> {
      const body = request.body;
      if (!body || typeof body !== 'object') return request;
      const fields = ['hcaptchaToken', 'hcaptcha_token'].filter((field) => field in body);
      if (fields.length === 0) return request;
      const captcha = await as('owner').post<{ token: string }>('/platform/captcha');
      const tokens = Object.fromEntries(fields.map((field) => [field, captcha.body.token]));
      return { ...request, body: { ...body, ...tokens } };
    }

    it('answers a request that keeps every bound without a 400, and one past any bound with 400', async () => {
      const problems: string[] = [];
      let checked = 0;
      for (const [url, method, operation] of operations(document)) {
        const { valid, variants } = requestsFor(document, url, method, operation, examples);
        const at = `${method.toUpperCase()} ${url}`;
        const baseline = await send(operation, url, await withCaptcha(valid));
        if (baseline.status === 400 || baseline.status >= 500) {
          problems.push(
            `${at}: the valid request answered ${baseline.status} ${baseline.body.message}`,
          );
        }
        for (const variant of variants) {
          const response = await send(operation, url, variant.request);
          checked += 1;
          const said = `${at} ${variant.label} (${variant.kind}): ${response.status} ${response.body.message}`;
          if (variant.kind === 'at' && response.status >= 500) problems.push(said);
          if (variant.kind === 'past') {
            if (response.status !== 400) problems.push(said);
            else if (method !== 'head' && !response.body.message)
              problems.push(`${said}: no message`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(checked).toBeGreaterThan(200);
    });
  });
});
