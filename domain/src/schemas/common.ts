import { z } from 'zod/mini';
import { documented } from './metadata.ts';

export const errorResponseSchema = documented(z.object({ message: z.string() }), {
  id: 'Error',
  description: 'Every error answers with a message that names the problem.',
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/**
 * What an id, a token or a key may hold: printable ASCII without spaces. Every id a client sends reaches
 * SQL, and PostgreSQL refuses a NUL in text with an error; the pattern stops it at the door as a 400.
 */
export const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * Well-formed text without the characters in `refused` (a character class body): a surrogate may only
 * stand as half of a pair. JSON can escape half of one alone (`"\udfff"`), which no keyboard types;
 * PostgreSQL refuses it in jsonb (the billing profile a charge keeps, survey reasons: a 500) and a text
 * column would keep U+FFFD instead of what was sent. The pattern reads the same with or without the `u` flag.
 */
export function textPattern(refused: string): RegExp {
  return new RegExp(`^(?:[^${refused}\\ud800-\\udfff]|[\\ud800-\\udbff][\\udc00-\\udfff])*$`);
}

/**
 * Text a person types (names, address lines, tax ID values): anything but control characters, which no
 * such field needs and PostgreSQL cannot store (NUL), and half surrogate pairs.
 */
export const PLAIN_TEXT = textPattern('\\x00-\\x1f\\x7f');

export function controlCharactersMessage(label: string): string {
  return `${label} must not contain control characters`;
}

/** Free text of at most `max` characters, without control characters; the messages name the field. */
export function plainTextSchema(label: string, max: number) {
  return z
    .string()
    .check(z.maxLength(max, `${label} must be at most ${max} characters`))
    .check(z.regex(PLAIN_TEXT, controlCharactersMessage(label)));
}

/** An id we or the payment provider issued: a prefix, then letters, digits and "_" (`pm_…`, `seti_…`). */
export function prefixedIdPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[A-Za-z0-9_]+$`);
}

export const slugSchema = z
  .string({ error: 'Slug is required' })
  .check(z.minLength(1, 'Slug is required'))
  .check(z.maxLength(100, 'Slug must be at most 100 characters'))
  .check(z.regex(/^[a-z0-9_-]+$/, 'Slug may only contain lowercase letters, digits, "-" and "_"'));

export const orgParamsSchema = z.object({ slug: slugSchema });

export const projectRefSchema = z
  .string()
  .check(z.minLength(1, 'Project ref is required'))
  .check(z.maxLength(40, 'Project ref must be at most 40 characters'))
  .check(z.regex(/^[a-z0-9]+$/, 'Project ref may only contain lowercase letters and digits'));

export const projectParamsSchema = z.object({ ref: projectRefSchema });

/** Unix seconds, as every timestamp in a payload. */
export const unixSecondsSchema = z.number().check(z.int());

export const emailSchema = z.email({ error: 'Please provide a valid email address' });
