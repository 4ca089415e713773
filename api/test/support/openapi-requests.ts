/**
 * Requests built from the API document alone, as a client's generator would build them: a request whose
 * every field keeps its declared bounds, and variants with one field just past one bound (or just at it).
 * Only the values a generator cannot invent (an organization of the demo world, a catalogue tax ID type,
 * a country) come from EXAMPLES.
 */

export interface JsonSchema {
  /** A list in OpenAPI 3.1 when the value may also be null: `["integer", "null"]`. */
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  nullable?: boolean;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

export interface Parameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface Operation {
  security?: Record<string, string[]>[];
  'x-permission'?: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; headers?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, { type: string; in?: string; name?: string }>;
  };
}

/** A request as sent: where each part goes is the parameter's `in`. */
export interface GeneratedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Variant {
  /** Which field and which bound, for the test's name. */
  label: string;
  request: GeneratedRequest;
  /** Past a bound (the server must answer 400), or at one (it must not fail). */
  kind: 'past' | 'at';
}

type Examples = Record<string, unknown>;

/** Follows $ref and picks the branch of a nullable union, or the type of a nullable type, that is not null. */
export function resolve(document: OpenApiDocument, schema: JsonSchema): JsonSchema {
  let current = schema;
  for (;;) {
    if (current.$ref) {
      const name = current.$ref.split('/').at(-1) ?? '';
      const target = document.components.schemas[name];
      if (!target) throw new Error(`unknown $ref ${current.$ref}`);
      current = target;
      continue;
    }
    const union = current.anyOf ?? current.oneOf;
    if (union) {
      const branch = union.find((candidate) => candidate.type !== 'null');
      if (!branch) throw new Error('a union of null only');
      current = branch;
      continue;
    }
    if (Array.isArray(current.type)) {
      const types = current.type.filter((type) => type !== 'null');
      return types.length === 1 ? { ...current, type: types[0] } : current;
    }
    return current;
  }
}

/** Examples for a name that several fields share, each fitting some of them. */
export class Candidates {
  constructor(readonly values: readonly unknown[]) {}
}

/** A value that keeps every bound the schema declares. */
export function valueFor(
  document: OpenApiDocument,
  raw: JsonSchema,
  name: string,
  examples: Examples,
): unknown {
  if (name in examples) {
    const example = examples[name];
    if (!(example instanceof Candidates)) return example;
    // One name, several kinds of id (`we_…`, `tok_…`): the first the field's pattern accepts.
    const pattern = resolve(document, raw).pattern;
    const fits = (value: unknown) =>
      !pattern || (typeof value === 'string' && new RegExp(pattern).test(value));
    return example.values.find(fits) ?? example.values[0];
  }
  const schema = resolve(document, raw);
  if (schema.enum) return schema.enum.find((value) => value !== null);
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const [key, property] of Object.entries(schema.properties ?? {})) {
        value[key] = valueFor(document, property, key, examples);
      }
      return value;
    }
    case 'array':
      return [valueFor(document, schema.items ?? {}, name, examples)];
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return true;
    case 'string': {
      if (schema.format === 'email') return 'someone@example.com';
      const length = Math.min(Math.max(schema.minLength ?? 0, 3), schema.maxLength ?? 3);
      const value = 'a'.repeat(length);
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) {
        throw new Error(`add an example for "${name}": "${value}" breaks ${schema.pattern}`);
      }
      return value;
    }
    default:
      throw new Error(`no value for "${name}" of type ${String(schema.type)}`);
  }
}

/** Characters that break a pattern when put inside a value; a header cannot carry the first two. */
const BREAKERS = ['\u0000', '\n', ' ', '/', '%', '~'];

/** One field's values past each of its bounds, and at each. */
function edges(
  document: OpenApiDocument,
  raw: JsonSchema,
  valid: unknown,
  where: Parameter['in'] | 'body',
): { bound: string; value: unknown; kind: Variant['kind'] }[] {
  const schema = resolve(document, raw);
  const out: { bound: string; value: unknown; kind: Variant['kind'] }[] = [];
  if (schema.enum) out.push({ bound: 'enum', value: 'not-a-choice', kind: 'past' });
  if (schema.type === 'string' && !schema.enum) {
    const text = typeof valid === 'string' ? valid : 'aaa';
    if (schema.maxLength !== undefined) {
      out.push({ bound: 'maxLength', value: 'a'.repeat(schema.maxLength + 1), kind: 'past' });
      const padded = text + 'a'.repeat(Math.max(0, schema.maxLength - text.length));
      if (!schema.pattern || new RegExp(schema.pattern).test(padded)) {
        out.push({ bound: 'maxLength', value: padded, kind: 'at' });
      }
    }
    // An empty path segment is another route, not a bad value.
    if (schema.minLength && !(where === 'path' && schema.minLength === 1)) {
      out.push({ bound: 'minLength', value: 'a'.repeat(schema.minLength - 1), kind: 'past' });
    }
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      const breakers = where === 'header' ? BREAKERS.slice(2) : BREAKERS;
      const broken = breakers
        .map((character) => text.slice(0, 1) + character + text.slice(1))
        .find((candidate) => !pattern.test(candidate));
      if (broken !== undefined) out.push({ bound: 'pattern', value: broken, kind: 'past' });
    }
    if (schema.format === 'email') out.push({ bound: 'format', value: 'no-email', kind: 'past' });
    if (schema.format === 'date') out.push({ bound: 'format', value: '2025-02-30', kind: 'past' });
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const { minimum, maximum } = schema;
    if (minimum !== undefined) {
      out.push({ bound: 'minimum', value: minimum - 1, kind: 'past' });
      out.push({ bound: 'minimum', value: minimum, kind: 'at' });
    }
    if (maximum !== undefined) {
      const past = maximum >= Number.MAX_SAFE_INTEGER ? maximum * 2 : maximum + 1;
      out.push({ bound: 'maximum', value: past, kind: 'past' });
      out.push({ bound: 'maximum', value: maximum, kind: 'at' });
    }
    if (schema.type === 'integer') {
      out.push({ bound: 'integer', value: (minimum ?? 0) + 0.5, kind: 'past' });
    }
  }
  if (schema.type === 'array' && Array.isArray(valid)) {
    if (schema.minItems) out.push({ bound: 'minItems', value: [], kind: 'past' });
    if (schema.maxItems !== undefined) {
      const many = Array.from({ length: schema.maxItems + 1 }, () => valid[0]);
      out.push({ bound: 'maxItems', value: many, kind: 'past' });
    }
  }
  return out;
}

/** Every variant of a body: each field past (and at) its bounds, each required field missing. */
function bodyVariants(
  document: OpenApiDocument,
  raw: JsonSchema,
  valid: unknown,
  path: string,
): { label: string; value: unknown; kind: Variant['kind'] }[] {
  const schema = resolve(document, raw);
  const field = `body ${path}`.replace(/\.$/, '').trim();
  const out = edges(document, raw, valid, 'body').map((edge) => ({
    label: `${field} ${edge.bound}`,
    value: edge.value,
    kind: edge.kind,
  }));
  if (schema.type === 'object' && valid && typeof valid === 'object') {
    const object = valid as Record<string, unknown>;
    for (const key of schema.required ?? []) {
      const { [key]: _dropped, ...rest } = object;
      out.push({ label: `body ${path}${key} required`, value: rest, kind: 'past' });
    }
    if (schema.additionalProperties === false) {
      out.push({
        label: `${field} additionalProperties`,
        value: { ...object, unexpected_field: 1 },
        kind: 'past',
      });
    }
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      for (const inner of bodyVariants(document, property, object[key], `${path}${key}.`)) {
        out.push({ ...inner, value: { ...object, [key]: inner.value } });
      }
    }
  }
  if (schema.type === 'array' && Array.isArray(valid) && schema.items) {
    for (const inner of bodyVariants(document, schema.items, valid[0], `${path}0.`)) {
      out.push({ ...inner, value: [inner.value, ...valid.slice(1)] });
    }
  }
  return out;
}

/** The request that keeps every bound, and its variants. */
export function requestsFor(
  document: OpenApiDocument,
  url: string,
  method: string,
  operation: Operation,
  examples: Examples,
): { valid: GeneratedRequest; variants: Variant[] } {
  const parameters = operation.parameters ?? [];
  const values = new Map<Parameter, unknown>();
  for (const parameter of parameters) {
    values.set(parameter, valueFor(document, parameter.schema, parameter.name, examples));
  }
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  const body = bodySchema ? valueFor(document, bodySchema, '', examples) : undefined;

  const build = (override: Map<Parameter, unknown>, requestBody: unknown): GeneratedRequest => {
    let path = url;
    const query = new URLSearchParams();
    const headers: Record<string, string> = {};
    for (const parameter of parameters) {
      const value = String(
        override.has(parameter) ? override.get(parameter) : values.get(parameter),
      );
      if (parameter.in === 'path')
        path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
      if (parameter.in === 'query') query.set(parameter.name, value);
      if (parameter.in === 'header') headers[parameter.name] = value;
    }
    const search = query.size > 0 ? `?${query}` : '';
    return { method: method.toUpperCase(), path: path + search, headers, body: requestBody };
  };

  const variants: Variant[] = [];
  for (const parameter of parameters) {
    for (const edge of edges(document, parameter.schema, values.get(parameter), parameter.in)) {
      variants.push({
        label: `${parameter.in} ${parameter.name} ${edge.bound}`,
        request: build(new Map([[parameter, edge.value]]), body),
        kind: edge.kind,
      });
    }
  }
  if (bodySchema) {
    for (const variant of bodyVariants(document, bodySchema, body, '')) {
      variants.push({
        label: variant.label,
        request: build(new Map(), variant.value),
        kind: variant.kind,
      });
    }
  }
  return { valid: build(new Map(), body), variants };
}
