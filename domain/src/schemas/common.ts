import { z } from 'zod';

export const errorResponseSchema = z
  .object({ message: z.string() })
  .meta({ id: 'Error', description: 'Every error answers with a message that names the problem.' });
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const slugSchema = z
  .string()
  .min(1, 'Slug is required')
  .max(100)
  .regex(/^[a-z0-9_-]+$/, 'Slug may only contain lowercase letters, digits, "-" and "_"');

export const orgParamsSchema = z.object({ slug: slugSchema });

export const projectRefSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9]+$/, 'Project ref may only contain lowercase letters and digits');

export const projectParamsSchema = z.object({ ref: projectRefSchema });

/** Unix seconds, as every timestamp in a payload. */
export const unixSecondsSchema = z.number().int();

export const emailSchema = z.email({ error: 'Please provide a valid email address' });
