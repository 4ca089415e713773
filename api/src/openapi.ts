import type { SwaggerTransform } from '@fastify/swagger';
import {
  ACCESS_TOKEN_REQUESTS_PER_MINUTE,
  ACCESS_TOKEN_SCOPES,
  errorResponseSchema,
  tokenScopeAllows,
  type Permission,
} from '@meterline/domain';
import type { FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Access } from './plugins/access.ts';
import { CSRF_COOKIE, CSRF_HEADER } from './plugins/csrf.ts';
import { SESSION_COOKIE } from './plugins/session.ts';

/**
 * The OpenAPI document tells what the server does, from the declarations the server itself runs on: the
 * zod schemas that validate each request, and each route's access rule (which the server refuses to
 * start without). Who may call an operation (`security`, `x-permission`) and the errors it can answer
 * (400, 401, 403, 404, 413, 414, 415, 429) are derived here from those, so they cannot drift apart.
 */

declare module 'fastify' {
  interface FastifySchema {
    /** Headers an answer carries, by status, for the document (fastify checks no answer's headers). */
    responseHeaders?: Record<string, Record<string, ResponseHeader>>;
    /** Set by the transform below: the permission the operation needs, or `none`. */
    'x-permission'?: string;
  }
}

/** A response header: its JSON schema, with a description. */
export interface ResponseHeader {
  description: string;
  type: 'integer' | 'string';
  minimum?: number;
  maximum?: number;
}

export const SECURITY_SCHEMES = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description:
      `The session: the httpOnly cookie that POST /platform/auth/sign-in sets (\`__Host-${SESSION_COOKIE}\` ` +
      'behind TLS) and POST /platform/auth/sign-out ends. A client keeps it in its cookie jar. See ' +
      '"A session from a terminal" above.',
  },
  csrfToken: {
    type: 'apiKey',
    in: 'header',
    name: CSRF_HEADER,
    description:
      'Every POST, PUT, PATCH and DELETE sent with cookies carries it, signing in included: GET ' +
      `/platform/auth/csrf answers the token and sets the httpOnly \`${CSRF_COOKIE}\` cookie it is checked ` +
      'against. Signing in replaces that cookie: ask for a new token after it. A missing or stale token ' +
      'answers 403.',
  },
  operatorKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The operator key: `Authorization: Bearer <METERING_API_KEY>` (unset, every call is refused). ' +
      'Compared in constant time; an address that keeps sending wrong keys waits (429, Retry-After).',
  },
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An access token of the organization (`mlt_…`, created under Access tokens by an owner or ' +
      'administrator): `Authorization: Bearer <token>` on the GET operations that list it, for that ' +
      'organization only, without cookies or CSRF. Anything else answers 403; an unknown, expired or ' +
      `revoked token 401; more than ${ACCESS_TOKEN_REQUESTS_PER_MINUTE} requests a minute 429.`,
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'stripe-signature',
    description: "Stripe's signature of the raw body with STRIPE_WEBHOOK_SECRET.",
  },
} as const;

type Security = Record<keyof typeof SECURITY_SCHEMES, string[]>[] | Record<string, string[]>[];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The methods whose body fastify parses: each can meet the body limit and the content-type check. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Longer path parameters are refused by the router (414) before any schema sees them. */
export const MAX_PATH_PARAMETER_LENGTH = 200;

/** Whether an access token's scope reads what this permission guards (the domain decides). */
function tokenReads(permission: Permission): boolean {
  return ACCESS_TOKEN_SCOPES.some((scope) => tokenScopeAllows(scope, 'GET', permission));
}

/** The `security` of an operation: an empty list says plainly that it needs none. */
function securityOf(access: Access, mutation: boolean, signedWebhook: boolean): Security {
  if (signedWebhook) return [{ stripeSignature: [] }];
  switch (access.kind) {
    case 'operator':
      return [{ operatorKey: [] }];
    case 'public':
      return mutation ? [{ csrfToken: [] }] : [];
    case 'user':
      return mutation ? [{ session: [], csrfToken: [] }] : [{ session: [] }];
    case 'org':
      if (mutation) return [{ session: [], csrfToken: [] }];
      return tokenReads(access.permission)
        ? [{ session: [] }, { accessToken: [] }]
        : [{ session: [] }];
  }
}

interface Derived {
  security: Security;
  permission: string;
  errors: Record<string, string>;
  headers: Record<string, Record<string, ResponseHeader>>;
}

/** What the route's own declarations say about who may call it and how it can fail. */
function derive(route: RouteOptions, schema: FastifySchema, bodyLimit: number): Derived {
  const config = route.config ?? {};
  const access = config.access;
  if (!access)
    throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
  const methods = [route.method].flat();
  const mutation = methods.some((method) => !SAFE_METHODS.has(method));
  const csrf = mutation && access.kind !== 'operator' && !config.signedWebhook;
  const parsesBody = methods.some((method) => BODY_METHODS.has(method));
  const limit = route.bodyLimit ?? bodyLimit;

  const errors: Record<string, string> = {};
  if (schema.params || schema.querystring || schema.headers || schema.body || parsesBody) {
    errors[400] = 'Invalid input: the message names the field and the rule it breaks';
  }
  if (access.kind === 'operator') errors[401] = 'No valid operator key';
  if (access.kind === 'user') errors[401] = 'Not signed in';
  if (access.kind === 'org') {
    errors[401] =
      tokenReads(access.permission) && !mutation
        ? 'Not signed in, or the access token is unknown, expired or revoked'
        : 'Not signed in';
  }
  if (access.kind === 'org') {
    errors[403] = csrf
      ? 'The permission in x-permission is missing (the message names it), or the CSRF token'
      : 'The permission in x-permission is missing (the message names it)';
    errors[404] =
      'Not found; an organization the user is not a member of answers as one that does not exist';
  } else if (csrf) {
    errors[403] = 'The CSRF token is missing or does not match its cookie';
  }
  if (parsesBody) {
    errors[413] = `The body is larger than ${limit} bytes`;
    errors[415] = 'The body is not application/json';
  }
  if (route.url.includes(':')) {
    errors[414] = `A path parameter is longer than ${MAX_PATH_PARAMETER_LENGTH} characters`;
  }
  const headers: Record<string, Record<string, ResponseHeader>> = {
    ...schema.responseHeaders,
  };
  if (access.kind === 'org' && !mutation && tokenReads(access.permission)) {
    errors[429] = 'Too many requests with one access token: Retry-After says when to try again';
  }
  if (config.rateLimit || errors[429]) {
    errors[429] ??= 'Too many requests: Retry-After says when to try again';
    headers[429] = {
      'Retry-After': {
        description: 'Seconds to wait',
        type: 'integer',
        minimum: 0,
        maximum: 86_400,
      },
      ...headers[429],
    };
  }
  return {
    security: securityOf(access, mutation, config.signedWebhook === true),
    permission: access.kind === 'org' ? access.permission : 'none',
    errors,
    headers,
  };
}

/** Wraps the zod provider's transform: the schemas as it documents them, plus what `derive` finds. */
export function operationTransform(options: { bodyLimit: number }): SwaggerTransform {
  return (input) => {
    const schema: FastifySchema | undefined = input.schema;
    if (!schema || schema.hide) return jsonSchemaTransform(input);
    const derived = derive(input.route, schema, options.bodyLimit);
    const { responseHeaders: _headers, ...declared } = schema;
    const response: Record<string, unknown> = {};
    for (const status of Object.keys(derived.errors)) response[status] = errorResponseSchema;
    Object.assign(response, declared.response);

    const transformed = jsonSchemaTransform({ ...input, schema: { ...declared, response } });
    const documented = transformed.schema.response as Record<string, Record<string, unknown>>;
    for (const [status, description] of Object.entries(derived.errors)) {
      // Beside a $ref, only the description survives: the answer's description, in its words.
      const entry = documented[status];
      if (entry) documented[status] = { ...entry, description };
    }
    for (const [status, headers] of Object.entries(derived.headers)) {
      const entry = documented[status];
      if (entry) documented[status] = { ...entry, headers };
    }
    for (const [status, entry] of Object.entries(documented)) {
      // An answer without a body (z.null(): HEAD, 204) is documented without content.
      const nothing =
        entry.type === 'null' ||
        (Array.isArray(entry.enum) && entry.enum.length === 1 && entry.enum[0] === null);
      if (nothing) {
        const { description = 'No body', headers } = entry;
        documented[status] = { type: 'null', description, ...(headers ? { headers } : {}) };
      }
    }
    return {
      url: transformed.url,
      schema: {
        ...transformed.schema,
        security: derived.security,
        'x-permission': derived.permission,
      },
    };
  };
}
