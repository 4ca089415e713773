import { operationIdOf } from './openapi-operation-ids.ts';
import { withSamples } from './openapi-samples.ts';

/**
 * The last pass over the built document, once: the schemas as OpenAPI 3.1 wants them (no `$schema`
 * or `$id`, which the zod provider leaves on named schemas with an id no resolver could use), an
 * `operationId` on each operation (openapi-operation-ids.ts), its answers described by their status
 * where no route said more than Fastify's "Default Response", and examples on its numbers
 * (openapi-samples.ts).
 */

type Json = Record<string, unknown>;

const METHODS = new Set(['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace']);

function withoutIdentifiers(schema: unknown): unknown {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const { $schema: _schema, $id: _id, ...rest } = schema as Json;
  return rest;
}

/** Fastify's placeholder for an answer no route described, and what the status itself says instead. */
const PLACEHOLDER = 'Default Response';
const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No body',
};

function withDescribedAnswers(operation: Json): Json {
  const responses = operation.responses as Record<string, Json> | undefined;
  if (!responses) return operation;
  const described = Object.entries(responses).map(([status, response]) =>
    response.description === PLACEHOLDER
      ? [status, { ...response, description: STATUS_TEXT[status] ?? `Status ${status}` }]
      : [status, response],
  );
  return { ...operation, responses: Object.fromEntries(described) };
}

function withOperationIds(paths: Record<string, Json>): Record<string, Json> {
  return Object.fromEntries(
    Object.entries(paths).map(([url, item]) => [
      url,
      Object.fromEntries(
        Object.entries(item).map(([method, operation]) =>
          METHODS.has(method) && operation && typeof operation === 'object'
            ? [
                method,
                withDescribedAnswers({
                  operationId: operationIdOf(method, url),
                  ...(operation as Json),
                }),
              ]
            : [method, operation],
        ),
      ),
    ]),
  );
}

export function finishDocument<T extends object>(input: T): T {
  const document = input as Json & {
    paths?: Record<string, Json>;
    components?: Json & { schemas?: Record<string, unknown> };
  };
  const schemas = Object.fromEntries(
    Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [
      name,
      withoutIdentifiers(schema),
    ]),
  );
  const finished = {
    ...document,
    paths: withOperationIds(document.paths ?? {}),
    components: { ...document.components, schemas },
  };
  return withSamples(finished) as T;
}
