import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as checkedSerializer } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Responses are written by a serializer compiled once per route from its response schema (Fastify's own
 * fast-json-stringify), not by parsing each answer with zod and then stringifying it: on the billing page's
 * reads that parse was the largest cost after the database. Like the parse, it writes only the properties the
 * schema declares, so nothing a handler holds beside them leaks; a required property missing still fails the
 * response. A schema JSON Schema cannot express (none today) keeps the checked zod serializer.
 */
export const responseSerializer: FastifySerializerCompiler<z.ZodType> = (route) => {
  let compiled: (data: unknown) => string;
  try {
    const json = z.toJSONSchema(route.schema, {
      target: 'draft-7',
      io: 'output',
      unrepresentable: 'throw',
    });
    compiled = fastJson(json as Parameters<typeof fastJson>[0]);
  } catch {
    return checkedSerializer(route);
  }
  return (data) => compiled(data);
};
