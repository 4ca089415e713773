import fc from 'fast-check';
import {
  resolve,
  type JsonSchema,
  type OpenApiDocument,
  type Parameter,
} from './openapi-requests.ts';
import {
  DuplicateKeys,
  HUGE_NUMBERS,
  RawToken,
  SHAPES,
  badParameterValue,
  badValueFor,
  toJson,
  type UrlValue,
} from './fuzz-values.ts';

/**
 * The ways the fuzz suite breaks a request, each a fast-check arbitrary of one change to a draft of it:
 * a parameter, a field of the body, the body as a whole, its JSON text, its content type, its credentials.
 */

/** How the caller's credentials go with a case: as they should, or broken. */
export type Credentials = 'caller' | 'no-csrf' | 'wrong-csrf' | 'anonymous' | 'wrong-key';

type Body = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string } | { kind: 'none' };

/** A request being broken: each mutation changes one part of it. */
export interface Draft {
  values: Map<Parameter, UrlValue | null>;
  extraQuery: [string, string][];
  body: Body;
  contentType: string | undefined;
  credentials: Credentials;
}

/**
 * Two mutations of one case compose in stages: fields and parameters first, then the body as a whole,
 * then its JSON text, so that a later one breaks what an earlier one made instead of undoing it.
 */
export type Stage = 'part' | 'body' | 'text';
export const STAGES: Stage[] = ['part', 'body', 'text'];

export interface Mutation {
  label: string;
  stage: Stage;
  apply(draft: Draft): void;
  /** Set when the document says this change is refused. */
  mustRefuse?: string;
}

const mutation = (
  label: string,
  apply: (draft: Draft) => void,
  stage: Stage = 'part',
): Mutation => ({
  label,
  stage,
  apply,
});

/** The body's JSON value as broken so far (a body already given as text starts again from `base`). */
const jsonOf = (draft: Draft, base: unknown) =>
  draft.body.kind === 'json' && !(draft.body.value instanceof DuplicateKeys)
    ? draft.body.value
    : base;

/** The body's text as broken so far. */
const textOf = (draft: Draft) =>
  draft.body.kind === 'json'
    ? toJson(draft.body.value)
    : draft.body.kind === 'raw'
      ? draft.body.text
      : '';

/** A value shortened for a label. */
function show(value: unknown): string {
  const text = value instanceof RawToken ? value.text : (toJson(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 30)}…(${text.length} chars)` : text;
}

type Path = (string | number)[];

/** Every place in the body: the body itself, each property (present or not) and each first item. */
function bodyPlaces(
  document: OpenApiDocument,
  raw: JsonSchema,
  value: unknown,
  path: Path = [],
): { path: Path; schema: JsonSchema }[] {
  const schema = resolve(document, raw);
  const out = [{ path, schema: raw }];
  if (schema.type === 'object' && value && typeof value === 'object') {
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      const inner = (value as Record<string, unknown>)[key];
      out.push(...bodyPlaces(document, property, inner, [...path, key]));
    }
  }
  if (schema.type === 'array' && Array.isArray(value) && schema.items && value.length > 0) {
    out.push(...bodyPlaces(document, schema.items, value[0], [...path, 0]));
  }
  return out;
}

/** A copy of `root` with the value at `path` replaced (or removed, for `undefined`). */
function setAt(root: unknown, path: Path, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  const copy = (Array.isArray(root) ? [...(root as unknown[])] : { ...(root as object) }) as Record<
    string | number,
    unknown
  >;
  const next = setAt(copy[head], rest, value);
  if (next === undefined) Reflect.deleteProperty(copy, head);
  else copy[head] = next;
  return copy;
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  '',
  'application/jsonx',
  'application/vnd.api+json',
  'text/json',
  '*/*',
  'application/json, text/plain',
];

/** Ways to break a JSON text. */
const BROKEN_JSON: [string, (text: string) => string][] = [
  ['trailing comma', (text) => text.replace(/[}\]]$/, ',$&')],
  ['single quotes', (text) => text.replaceAll('"', "'")],
  ['byte order mark', (text) => `\ufeff${text}`],
  ['comment', (text) => `/* c */${text}`],
  ['two documents', (text) => `${text}${text}`],
  ['NaN token', () => 'NaN'],
  ['empty text', () => ''],
  ['only spaces', () => '   '],
  ['a NUL byte', (text) => `${text}\u0000`],
  ['unclosed', () => '{"a":'],
  ['deep nesting', () => '['.repeat(100_000)],
  ['__proto__ key', (text) => `{"__proto__":{"admin":true},${text.slice(1)}`],
  ['constructor.prototype', () => `{"constructor":{"prototype":{"admin":true}}}`],
  ['over 1 MB', () => `{"padding":"${'a'.repeat(1_100_000)}"}`],
];

/** A JSON text broken one way, or cut short. */
function brokenJson(length: number): fc.Arbitrary<Mutation> {
  const raw = (label: string, broken: (text: string) => string) =>
    mutation(
      `JSON: ${label}`,
      (draft) => (draft.body = { kind: 'raw', text: broken(textOf(draft) || '{}') }),
      'text',
    );
  return fc.oneof(
    fc.constantFrom(...BROKEN_JSON).map(([label, broken]) => raw(label, broken)),
    fc
      .nat({ max: Math.max(0, length - 1) })
      .map((at) => raw(`cut at ${at}`, (text) => text.slice(0, Math.min(at, text.length - 1)))),
  );
}

/** The operation's request that keeps every bound, as a draft to break. */
export interface Base {
  parameters: Parameter[];
  values: Map<Parameter, unknown>;
  bodySchema: JsonSchema | undefined;
  body: unknown;
}

const isNumber = (document: OpenApiDocument, schema: JsonSchema) =>
  [resolve(document, schema).type].flat().some((type) => type === 'integer' || type === 'number');

/**
 * Why the document refuses `value` in a number field, if it does: out of the declared range, not whole
 * where an integer is declared, or no range declared at all. A string is read as a query reads it.
 */
function outOfRange(
  document: OpenApiDocument,
  raw: JsonSchema,
  value: unknown,
): string | undefined {
  const schema = resolve(document, raw);
  if (!isNumber(document, schema)) return undefined;
  const number =
    value instanceof RawToken
      ? Number(value.text)
      : typeof value === 'number' || typeof value === 'string'
        ? Number(value)
        : undefined;
  if (number === undefined) return undefined;
  const { minimum, maximum } = schema;
  const range = `[${minimum ?? '-∞'}, ${maximum ?? '∞'}]`;
  if (minimum === undefined || maximum === undefined) return `the field declares no range ${range}`;
  if (!Number.isFinite(number) || number < minimum || number > maximum) {
    return `${number} is outside the declared range ${range}`;
  }
  if (schema.type === 'integer' && !Number.isInteger(number)) return `${number} is not an integer`;
  return undefined;
}

/** The body's field at `path` set to `value` (removed, for `undefined`). */
function setField(
  document: OpenApiDocument,
  base: Base,
  place: { path: Path; schema: JsonSchema },
  label: string,
  value: unknown,
): Mutation {
  const { path, schema } = place;
  const at = path.length > 0 ? `body.${path.join('.')}` : 'body';
  const change = mutation(`${at} ${label}`, (draft) => {
    draft.body = { kind: 'json', value: setAt(jsonOf(draft, base.body), path, value) };
  });
  const refused = value === undefined ? undefined : outOfRange(document, schema, value);
  return refused ? { ...change, mustRefuse: `${at}: ${refused}` } : change;
}

/**
 * Every huge number in every number of the body, each in a case of its own: random picks might miss the
 * one amount among a dozen address fields, and a number without its bound is what this must not miss.
 */
export function hugeNumberSweep(document: OpenApiDocument, base: Base): Mutation[][] {
  if (!base.bodySchema) return [];
  return bodyPlaces(document, base.bodySchema, base.body)
    .filter(({ schema }) => isNumber(document, schema))
    .flatMap((place) =>
      HUGE_NUMBERS.map((value) => [setField(document, base, place, `= ${show(value)}`, value)]),
    );
}

export function mutations(document: OpenApiDocument, base: Base): fc.Arbitrary<Mutation> {
  const options: fc.WeightedArbitrary<Mutation>[] = [];
  const { parameters, bodySchema, body } = base;
  for (const parameter of parameters) {
    const where = `${parameter.in} ${parameter.name}`;
    options.push({
      weight: 6,
      arbitrary: badParameterValue(document, parameter.schema, parameter.in).map((value) => {
        const change = mutation(
          `${where} = ${show(value.text)}${value.encoded ? '' : ' (raw)'}`,
          (draft) => draft.values.set(parameter, value),
        );
        // A query number is text: an empty or blank one is no number at all, not a zero.
        const refused =
          value.encoded && value.text.trim() !== ''
            ? outOfRange(document, parameter.schema, value.text)
            : undefined;
        return refused ? { ...change, mustRefuse: `${where}: ${refused}` } : change;
      }),
    });
    if (parameter.in === 'query' || parameter.in === 'header') {
      options.push({
        weight: 1,
        arbitrary: fc.constant(
          mutation(`${where} missing`, (draft) => draft.values.set(parameter, null)),
        ),
      });
    }
    if (parameter.in === 'query') {
      options.push({
        weight: 1,
        arbitrary: fc
          .constantFrom(`${parameter.name}`, `${parameter.name}[]`, `${parameter.name}[a]`)
          .map((key) =>
            mutation(`query ${key} twice`, (draft) => draft.extraQuery.push([key, '1'])),
          ),
      });
    }
  }
  options.push({
    weight: 1,
    arbitrary: fc
      .constantFrom('extra', '__proto__[admin]', 'constructor[prototype][admin]', 'x'.repeat(1000))
      .map((key) =>
        mutation(`query ${show(key)} added`, (draft) => draft.extraQuery.push([key, 'true'])),
      ),
  });

  if (bodySchema) {
    const places = bodyPlaces(document, bodySchema, body);
    // Numbers weigh more: amounts, quantities and timestamps are where a missing bound costs money.
    const place = fc.oneof(
      ...places.map((entry) => ({
        weight: isNumber(document, entry.schema) ? 5 : 1,
        arbitrary: fc.constant(entry),
      })),
    );
    const field = place.chain((chosen) => {
      const { path, schema } = chosen;
      const set = (label: string, value: unknown) => setField(document, base, chosen, label, value);
      const parent = path.slice(0, -1);
      return fc.oneof(
        {
          weight: 6,
          arbitrary: badValueFor(document, schema).map((value) => set(`= ${show(value)}`, value)),
        },
        {
          weight: 1,
          arbitrary: fc.constant(path.length > 0 ? set('missing', undefined) : set('= null', null)),
        },
        {
          weight: 1,
          arbitrary: fc.constant(
            mutation(`body.${parent.join('.')} with an extra field`, (draft) => {
              const current = jsonOf(draft, body);
              const inner = parent.reduce<unknown>(
                (value, key) => (value as Record<string | number, unknown> | null)?.[key],
                current,
              );
              const extended =
                inner && typeof inner === 'object' && !Array.isArray(inner)
                  ? { ...inner, unexpected_field: 'x' }
                  : inner;
              draft.body = { kind: 'json', value: setAt(current, parent, extended) };
            }),
          ),
        },
      );
    });
    options.push({ weight: 10, arbitrary: field });
    options.push({ weight: 3, arbitrary: brokenJson(toJson(body).length) });
    if (body && typeof body === 'object' && !Array.isArray(body)) {
      const entries = Object.entries(body).filter(([, value]) => value !== undefined);
      if (entries.length > 0) {
        options.push({
          weight: 2,
          arbitrary: fc
            .tuple(
              fc.constantFrom(...entries.map(([key]) => key)),
              fc.boolean(),
              fc.constantFrom(...SHAPES.slice(0, 8), new RawToken('1e999'), 'x'.repeat(100_000)),
            )
            .map(([key, last, value]) =>
              mutation(
                `duplicate key ${key} (${last ? 'last' : 'first'} = ${show(value)})`,
                (draft) => {
                  const twice: [string, unknown][] = last
                    ? [...entries, [key, value]]
                    : [[key, value], ...entries];
                  draft.body = { kind: 'json', value: new DuplicateKeys(twice) };
                },
                'body',
              ),
            ),
        });
      }
    }
  }
  const whole = fc.oneof(
    fc.constantFrom(...SHAPES),
    fc.jsonValue({ maxDepth: 3 }),
    fc.constant(body === undefined ? [] : [body]),
  );
  options.push({
    weight: bodySchema ? 3 : 2,
    arbitrary: whole.map((value) =>
      mutation(`body = ${show(value)}`, (draft) => (draft.body = { kind: 'json', value }), 'body'),
    ),
  });
  if (!bodySchema) options.push({ weight: 1, arbitrary: brokenJson(2) });
  options.push({
    weight: 2,
    arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES).map((type) =>
      mutation(`content-type ${JSON.stringify(type)}`, (draft) => {
        draft.contentType = type;
        if (draft.body.kind === 'none') draft.body = { kind: 'raw', text: 'a=1' };
      }),
    ),
  });
  options.push({
    weight: 1,
    arbitrary: fc
      .constantFrom<Credentials>('no-csrf', 'wrong-csrf', 'anonymous', 'wrong-key')
      .map((credentials) =>
        mutation(`credentials: ${credentials}`, (draft) => (draft.credentials = credentials)),
      ),
  });
  return fc.oneof(...options);
}
