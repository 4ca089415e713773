import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { API_REFERENCE_UI, API_TAGS, apiInfo } from './api-reference.ts';
import { finishDocument } from './openapi-finish.ts';
import { domainSchemaNames } from './openapi-names.ts';
import { operationTransform, SECURITY_SCHEMES } from './openapi.ts';

/**
 * The OpenAPI document and its reference page. The document is built once from the routes; each time
 * it is served it names the address the reader reached the server at, in `servers` and in the curl
 * examples of its description, so that what a reader copies works against this server.
 */

export interface OpenApiDocumentOptions {
  bodyLimit: number;
  /** The product's configured public address (PUBLIC_URL), if one was set. */
  publicUrl: string | undefined;
}

interface Document {
  info: { title: string; version: string; description?: string };
  servers?: { url: string; description?: string }[];
  [key: string]: unknown;
}

/**
 * PUBLIC_URL as the operator set it: the configuration fills it in with `http://localhost:<PORT>` when
 * unset, which is no public address (a reader may be anywhere), so that one counts as none.
 */
export function configuredPublicUrl(
  config: Pick<Config, 'PUBLIC_URL' | 'PORT'>,
): string | undefined {
  return config.PUBLIC_URL === `http://localhost:${config.PORT}` ? undefined : config.PUBLIC_URL;
}

/** A host as a client sends it: a name or an IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/**
 * Where the request reached the server: its protocol and host as Fastify reads them, which follows
 * X-Forwarded-Proto and X-Forwarded-Host only from the proxies TRUST_PROXY names. A host that is not
 * one (anything a client could make up to inject text) gives no origin.
 */
export function requestOrigin(request: FastifyRequest): string | undefined {
  const protocol = request.protocol;
  const host = request.host;
  if ((protocol !== 'http' && protocol !== 'https') || !HOST.test(host)) return undefined;
  return `${protocol}://${host}`;
}

/** The address the document names: the configured public one, else the request's, else relative. */
export function serverUrl(request: FastifyRequest, publicUrl: string | undefined): string {
  return publicUrl ?? requestOrigin(request) ?? '';
}

/** The built document as this reader sees it: `servers` and the examples name their server. */
export function documentFor(document: Document, url: string): Document {
  return {
    ...document,
    info: { ...document.info, ...apiInfo(url || 'http://localhost:8080') },
    servers: [{ url: url || '/', description: 'This server' }],
  };
}

/**
 * The reference page's copy: zod bounds every integer by ±9007199254740991, the largest a JavaScript
 * number holds exactly. The document keeps those bounds for the tools that read it; a person reading
 * "[-9007199254740991, 9007199254740991]" beside every amount and time learns nothing, so the page
 * leaves them out and shows the bounds that are rules of ours.
 */
export function withoutNumberLimits(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNumberLimits);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([key, item]) =>
          !(key === 'maximum' && item === Number.MAX_SAFE_INTEGER) &&
          !(key === 'minimum' && item === Number.MIN_SAFE_INTEGER),
      )
      .map(([key, item]) => [key, withoutNumberLimits(item)]),
  );
}

async function openApiDocument(app: FastifyInstance, options: OpenApiDocumentOptions) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: apiInfo('http://localhost:8080'),
      tags: [...API_TAGS],
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    transform: operationTransform({ bodyLimit: options.bodyLimit }),
    // The domain's schema names ("Invoice"), not the provider's read and write variants ("InvoiceInput").
    transformObject: (input) => finishDocument(domainSchemaNames(jsonSchemaTransformObject(input))),
  });
  const built = () => app.swagger() as unknown as Document;
  const served = (request: FastifyRequest) =>
    documentFor(built(), serverUrl(request, options.publicUrl));
  // The page's copy is made once, from the document as built (which Swagger UI's plugin caches too).
  let page: { from: Document; copy: Document } | undefined;
  const forPage = () => {
    const from = built();
    if (page?.from !== from) page = { from, copy: withoutNumberLimits(from) as Document };
    return page.copy;
  };
  await app.register(swaggerUi, {
    ...API_REFERENCE_UI,
    transformSpecificationClone: false,
    transformSpecification: (_document, request) =>
      documentFor(forPage(), serverUrl(request, options.publicUrl)),
  });
  app.get(
    '/platform/openapi.json',
    { schema: { hide: true }, config: { access: { kind: 'public' } } },
    served,
  );
}

export default fp(openApiDocument, { name: 'openapi-document' });
