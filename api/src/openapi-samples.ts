/**
 * Examples for the numbers of the document, so the reference shows a plausible invoice (an amount of
 * 2500 cents, a time in 2026) rather than what a generator makes of the bounds alone (zod's integers
 * are bounded by ±9007199254740991, which Swagger UI would print). A schema that has an example, a
 * default, a const or an enum keeps it. Strings are left to their formats.
 */

type Schema = Record<string, unknown>;

/** 2026-01-01T00:00:00Z, in unix seconds. */
const A_TIME = 1_767_225_600;

/** By the name of the field, what a number in it usually is. */
const BY_NAME: [RegExp, number][] = [
  [/(^at$|_at$|^created$|_start$|_end$|^timestamp$|_date$|anchor)/, A_TIME],
  [/year/, 2030],
  [/month/, 8],
  [/(threshold|alert|reached|percent)/, 75],
  [/status/, 200],
  [/_ms$/, 120],
  [/(number_of|(^|[_-])count$|limit|accepted|attempts)/, 3],
  [/(amount|balance|budget|charge|cost|credit|price|spend|total|projected|estimate)/, 2500],
  [/(usage|quantity|hours)/, 720],
];

const bound = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

function numberSample(name: string, schema: Schema): number {
  const minimum = bound(schema.minimum) ?? bound(schema.exclusiveMinimum);
  const maximum = bound(schema.maximum) ?? bound(schema.exclusiveMaximum);
  const wanted = BY_NAME.find(([pattern]) => pattern.test(name))?.[1] ?? 1;
  if (minimum !== undefined && wanted < minimum) return minimum;
  if (maximum !== undefined && wanted > maximum) return maximum;
  return wanted;
}

const hasSample = (schema: Schema) =>
  ['examples', 'example', 'default', 'const', 'enum'].some((key) => key in schema);

function withSample(name: string, schema: Schema): Schema {
  if (hasSample(schema)) return schema;
  const types = [schema.type].flat();
  if (types.includes('integer') || types.includes('number')) {
    return { ...schema, examples: [numberSample(name, schema)] };
  }
  return schema;
}

/** A copy of `value` (a document or a part of one) with examples on its numbers. */
export function withSamples(value: unknown, name = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withSamples(item, name));
  if (!value || typeof value !== 'object') return value;
  const schema = withSample(name, value as Schema);
  return Object.fromEntries(
    Object.entries(schema).map(([key, item]) => {
      if (key === 'properties' && item && typeof item === 'object') {
        const properties = Object.entries(item as Schema);
        return [
          key,
          Object.fromEntries(properties.map(([field, s]) => [field, withSamples(s, field)])),
        ];
      }
      if (key === 'parameters' && Array.isArray(item)) {
        return [
          key,
          item.map((parameter: Schema) => ({
            ...parameter,
            schema: withSamples(parameter.schema, String(parameter.name)),
          })),
        ];
      }
      if (key === 'headers' && item && typeof item === 'object') {
        const headers = Object.entries(item as Schema);
        return [
          key,
          Object.fromEntries(
            headers.map(([header, h]) => [header, withSamples(h, header.toLowerCase())]),
          ),
        ];
      }
      return [key, withSamples(item, name)];
    }),
  );
}
