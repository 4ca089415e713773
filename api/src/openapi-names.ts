/**
 * The zod provider documents every named schema twice, as the server reads it ("InvoiceInput") and as it
 * writes it ("Invoice"), whether or not an operation uses both. A reader wants the domain's names: one
 * "Invoice", one "CustomerAddress", one "SignIn". This pass keeps each schema under its own name:
 *
 * - only the written variant is used (a response): it keeps its name, and the unused read one goes;
 * - only the read variant is used (a request body): it takes the plain name;
 * - both are used and say the same (after their own references are renamed alike): one schema;
 * - both are used and differ (a default or a transform): the read one is "<Name>Request" ("<Name>Body"
 *   when the name already ends with Request), so the names still say what they are.
 *
 * A written variant that no operation uses stays listed: it is the domain's vocabulary (metric names).
 */

const INPUT_SUFFIX = 'Input';
const REF_PREFIX = '#/components/schemas/';

type Json = unknown;
interface Document {
  paths?: Record<string, Json>;
  components?: { schemas?: Record<string, Json> } & Record<string, Json>;
  [key: string]: Json;
}

/** The schema names a value refers to. */
function referencesIn(value: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencesIn(item, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string' && item.startsWith(REF_PREFIX)) {
        found.add(item.slice(REF_PREFIX.length));
      } else {
        referencesIn(item, found);
      }
    }
  }
  return found;
}

/** Every schema the operations use, directly or through other schemas. */
function usedSchemas(document: Document, schemas: Record<string, Json>): Set<string> {
  const used = referencesIn(document.paths ?? {});
  const pending = [...used];
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const next of referencesIn(schemas[name])) {
      if (!used.has(next)) {
        used.add(next);
        pending.push(next);
      }
    }
  }
  return used;
}

/** A copy of the value with its schema references renamed. */
function renameReferences(value: Json, names: ReadonlyMap<string, string>): Json {
  if (Array.isArray(value)) return value.map((item) => renameReferences(item, names));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (key === '$ref' && typeof item === 'string' && item.startsWith(REF_PREFIX)) {
          const name = item.slice(REF_PREFIX.length);
          return [key, `${REF_PREFIX}${names.get(name) ?? name}`];
        }
        return [key, renameReferences(item, names)];
      }),
    );
  }
  return value;
}

/** The read variant's name when both variants are used and differ. */
function requestName(name: string): string {
  return name.endsWith('Request') ? `${name}Body` : `${name}Request`;
}

export function domainSchemaNames<T extends object>(input: T): T {
  const document = input as Document;
  const schemas = document.components?.schemas;
  if (!schemas) return input;
  const used = usedSchemas(document, schemas);

  // What each read variant becomes; written variants keep their names.
  const names = new Map<string, string>();
  const plain = (name: string) => name.slice(0, -INPUT_SUFFIX.length);
  const readVariants = Object.keys(schemas).filter(
    (name) => name.endsWith(INPUT_SUFFIX) && name.length > INPUT_SUFFIX.length,
  );
  for (const name of readVariants) names.set(name, plain(name));
  for (const name of readVariants) {
    const base = plain(name);
    if (!used.has(name) || !used.has(base) || !(base in schemas)) continue;
    const same =
      JSON.stringify(renameReferences(schemas[name], names)) ===
      JSON.stringify(renameReferences(schemas[base], names));
    if (!same) names.set(name, requestName(base));
  }

  const renamed: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const isRead = names.has(name);
    if (isRead && !used.has(name)) continue;
    const target = names.get(name) ?? name;
    // A written variant that nothing uses gives way to the read one of the same name.
    if (!isRead && !used.has(name) && readVariants.includes(`${name}${INPUT_SUFFIX}`)) {
      if (used.has(`${name}${INPUT_SUFFIX}`)) continue;
    }
    if (isRead && target in renamed) continue; // the same schema, already there
    renamed[target] = renameReferences(schema, names);
  }

  return {
    ...(renameReferences(document, names) as Document),
    components: { ...document.components, schemas: renamed },
  } as T;
}
