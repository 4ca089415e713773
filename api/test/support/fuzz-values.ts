import fc from 'fast-check';
import { resolve, type JsonSchema, type OpenApiDocument } from './openapi-requests.ts';

/**
 * The bad values the fuzz suite puts in a request: what JSON.stringify cannot write (a number token such as
 * 1e999 or -0, the same key twice), kinds a schema did not ask for, and strings that have broken servers
 * (NUL, lone surrogates, 100,000 characters, invalid dates). Which ones a field gets depends on its schema.
 */

/** A JSON token written as is: `1e999`, `-0`, `9007199254740993`, or not JSON at all (`NaN`). */
export class RawToken {
  constructor(readonly text: string) {}
}

/** An object whose keys may repeat, in this order (JSON.parse keeps the last). */
export class DuplicateKeys {
  constructor(readonly entries: readonly [string, unknown][]) {}
}

/** JSON text of a value, RawToken and DuplicateKeys included. */
export function toJson(value: unknown): string {
  if (value instanceof RawToken) return value.text;
  if (value instanceof DuplicateKeys) {
    return `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`).join(',')}}`;
  }
  if (Array.isArray(value))
    return `[${Array.from(value, (item) => toJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, inner]) => inner !== undefined);
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const raw = (text: string) => new RawToken(text);
const LONG = 100_000;

export const HUGE_NUMBERS: readonly unknown[] = [
  1e308,
  -1e308,
  raw('1e999'),
  raw('-1e999'),
  raw('9007199254740993'),
  raw('-9007199254740993'),
  raw('123456789012345678901234567890'),
  raw('-0'),
  raw('1e-400'),
  raw('0.1e1'),
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
];

export const ODD_NUMBERS: readonly unknown[] = [0, -1, -100, 0.5, -0.01, 99.999, 100.5, 1e-7];

/** Strings a number field may be sent as. */
export const NUMBER_STRINGS: readonly string[] = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '9007199254740993',
  '-0',
  '0x10',
  '1_000',
  ' 1',
  '١٢٣',
  '１２３',
  '100.00',
];

export const BAD_DATES: readonly string[] = [
  '2024-02-30',
  '2023-02-29',
  '0000-01-01',
  '0000-00-00',
  '2024-13-01',
  '2024-00-10',
  '9999-12-31',
  '10000-01-01',
  '-000001-01-01',
  '2024-1-1',
  '2024-01-01T25:00:00Z',
  '2024-01-01T00:00:60Z',
  '2024-01-01T00:00:00+25:00',
  '1969-12-31T23:59:59Z',
  '2024/01/01',
  'today',
  '2024-01-01\u0000',
];

export const BAD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n',
  'a'.repeat(LONG),
  'é'.repeat(LONG),
  '💸'.repeat(LONG / 2),
  '\u0000',
  'a\u0000b',
  '\ud800',
  'a\udfffb',
  '\u202egnp.exe',
  '\u200b',
  'e\u0301',
  '\ufeffa',
  '../../../etc/passwd',
  '..\\..\\boot.ini',
  '%00',
  '%2e%2e%2f',
  "' OR '1'='1",
  '"; DROP TABLE invoices; --',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'true',
  '[object Object]',
  '\r\nSet-Cookie: x=y',
  ...NUMBER_STRINGS,
  ...BAD_DATES,
];

/** Kinds where another kind belongs: an array where an object is, an object where an array is. */
export const SHAPES: readonly unknown[] = [
  null,
  true,
  false,
  0,
  '',
  [],
  {},
  [null],
  [[]],
  [{}],
  { '': '' },
  JSON.parse('['.repeat(500) + ']'.repeat(500)) as unknown,
];

/** Generated values of any kind, from fast-check: the shapes nobody listed. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.double().map((value) => (Number.isFinite(value) ? value : raw(String(value)))),
  fc.bigInt().map((value) => raw(String(value))),
);

const pick = (values: readonly unknown[]) => fc.constantFrom(...values);

/**
 * Values a schema accepts, at its edges: the extreme number, the longest string in characters that take
 * two UTF-16 units or two UTF-8 bytes, the first and last day. Past validation, they meet the code behind it.
 */
function atBounds(schema: JsonSchema): fc.Arbitrary<unknown> {
  const values: unknown[] = [];
  if (schema.type === 'integer' || schema.type === 'number') {
    const { minimum, maximum } = schema;
    if (minimum !== undefined) values.push(minimum);
    if (maximum !== undefined) values.push(maximum, maximum - 1);
    if (schema.type === 'number' && maximum !== undefined) values.push(maximum - 0.01);
  }
  if (schema.type === 'string' && !schema.enum && !schema.pattern) {
    const max = Math.min(schema.maxLength ?? 1000, LONG);
    const min = schema.minLength ?? 0;
    values.push(
      'a'.repeat(max),
      'é'.repeat(max),
      '💸'.repeat(Math.floor(max / 2)),
      ' '.repeat(Math.max(min, 1)),
    );
    values.push(
      `${'a'.repeat(Math.max(0, min - 1))}\ud800`,
      `${'a'.repeat(Math.max(0, min - 1))}\u{10ffff}`,
    );
  }
  if (schema.type === 'string' && schema.format === 'date') values.push('2000-01-01', '2100-12-31');
  if (schema.type === 'string' && schema.format === 'date-time') {
    values.push('1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2024-02-29T23:59:59+14:00');
  }
  return values.length > 0 ? fc.constantFrom(...values) : fc.constant(null);
}

/** A value past or beside what the field's schema declares, for a JSON body. */
export function badValueFor(document: OpenApiDocument, raw: JsonSchema): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  const typed: fc.Arbitrary<unknown>[] = [];
  if (schema.enum) {
    const first = String(schema.enum.find((value) => value !== null) ?? 'x');
    typed.push(pick([first.toUpperCase(), ` ${first}`, `${first}\u0000`, 'not-a-choice', '']));
  }
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const { minimum = 0, maximum = 1e6 } = schema;
      const edges = [
        minimum - 1,
        minimum - 0.5,
        maximum + 1,
        maximum + 0.5,
        -maximum,
        maximum * 10,
      ];
      typed.push(pick(HUGE_NUMBERS), pick(ODD_NUMBERS), pick(edges), pick(NUMBER_STRINGS));
      break;
    }
    case 'string': {
      const max = schema.maxLength ?? 200;
      typed.push(
        pick(BAD_STRINGS),
        pick(['€'.repeat(max + 1), '💸'.repeat(Math.ceil(max / 2) + 1), 'x'.repeat(max + 1)]),
        pick([12345, 1e308, true]),
      );
      if (schema.format === 'date' || schema.format === 'date-time') typed.push(pick(BAD_DATES));
      break;
    }
    case 'boolean':
      typed.push(pick(['true', 'false', 1, 0, 'yes']));
      break;
    case 'array':
      typed.push(
        pick([{}, { 0: null }, 'a,b']),
        fc.constant(Array.from({ length: 10_000 }, () => 1)),
      );
      break;
    case 'object':
      typed.push(pick([[], '{}', 'object']));
      break;
  }
  return fc.oneof(
    { arbitrary: fc.oneof(...(typed.length > 0 ? typed : [pick(BAD_STRINGS)])), weight: 6 },
    { arbitrary: atBounds(schema), weight: 2 },
    { arbitrary: pick(SHAPES), weight: 2 },
    { arbitrary: anyJson, weight: 2 },
  );
}

/** A parameter's value as it goes into the URL: encoded, or already percent-encoded as a client might. */
export interface UrlValue {
  text: string;
  encoded: boolean;
}

/** Percent sequences a client sends as they are: NUL, malformed escapes, bytes that are no UTF-8. */
const RAW_URL_VALUES: readonly string[] = [
  '%00',
  'a%00b',
  '%',
  '%zz',
  '%ED%A0%80',
  '%FF%FE',
  '%C0%AE%C0%AE%C0%AF',
  '..%2F..%2Facme-team',
  '%2e%2e',
  '%252e%252e',
  '+',
];

/** Values for a path, query or header parameter. */
export function badParameterValue(
  document: OpenApiDocument,
  raw: JsonSchema,
  where: 'path' | 'query' | 'header' | 'cookie',
): fc.Arbitrary<UrlValue> {
  const schema = resolve(document, raw);
  const texts: string[] = [
    '9'.repeat(300),
    '9'.repeat(199),
    'x'.repeat(LONG),
    '../acme-team',
    '..',
    '.',
    'acme-team',
    '1e308',
    '9007199254740993',
    '-1',
    '-0',
    '0.5',
    'NaN',
    '💸',
    'ü',
    '\u0000',
    'a b',
    'null',
    'undefined',
    '__proto__',
    'constructor',
    ...BAD_DATES,
  ];
  // Past each bound, and at it (the query's largest offset, the first and last day there is usage for).
  if (schema.maximum !== undefined) {
    texts.push(String(schema.maximum + 1), `${schema.maximum}.5`, String(schema.maximum));
  }
  if (schema.minimum !== undefined) texts.push(String(schema.minimum - 1), String(schema.minimum));
  texts.push('2000-01-01', '2100-12-31', '1970-01-01T00:00:00Z');
  if (schema.maxLength !== undefined) texts.push('a'.repeat(schema.maxLength + 1));
  const encoded = fc.oneof(fc.constantFrom(...texts), fc.string({ unit: 'binary', maxLength: 30 }));
  // A header carries printable Latin-1 only: anything else no client can send.
  const headerSafe = (text: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(text);
  if (where === 'header')
    return encoded.filter(headerSafe).map((text) => ({ text, encoded: false }));
  return fc.oneof(
    { arbitrary: encoded.map((text) => ({ text, encoded: true })), weight: 3 },
    {
      arbitrary: fc.constantFrom(...RAW_URL_VALUES).map((text) => ({ text, encoded: false })),
      weight: 1,
    },
  );
}
