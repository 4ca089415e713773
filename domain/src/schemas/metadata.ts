import { z } from 'zod/mini';

/**
 * A copy of `schema` documented with `metadata` (an `id` names it in the OpenAPI document, a
 * `description` explains it), as zod's own `.meta()` and `.describe()` do: the copy carries the words,
 * so a schema reused with other words keeps its own, and they are no check (an object documented so
 * can still be extended or picked from).
 */
export function documented<T extends z.ZodMiniType>(schema: T, metadata: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy as z.core.$ZodType, metadata);
  return copy;
}
