// @ts-check
/**
 * The server's layers, one way (style.md, "the shape of the house"), as a local ESLint rule.
 *
 *   routes → services → adapters → repositories → db
 *
 * A layer imports its own folder and the layers below it, never one above. `plugins/` are the
 * cross-cutting concerns the routes use: they import repositories, adapters and db, never a service
 * or a route. `adapters/` are the providers (payment gateway, captcha, mail transport) behind the
 * ports services talk to: they import no service. Route files hold no SQL: they import no query
 * builder (`kysely`) and call none of its statement starters; a repository does that. `lib/` holds
 * the small helpers every layer may use (typed failures, ids, the close grace) and imports no layer.
 *
 * Files directly under `api/src/` (app.ts, config.ts, failure.ts, …), `cli/` and `seed/` compose
 * or are shared by all layers; they are not checked. Like the web rule, only relative specifiers
 * are resolved (the api imports its own modules by relative path only).
 */
import path from 'node:path';

/** What each layer may import, besides itself and files outside the layers. */
const MAY_IMPORT = /** @type {const} */ ({
  routes: ['plugins', 'services', 'adapters', 'repositories', 'db', 'lib'],
  plugins: ['adapters', 'repositories', 'db', 'lib'],
  services: ['adapters', 'repositories', 'db', 'lib'],
  adapters: ['repositories', 'db', 'lib'],
  repositories: ['db', 'lib'],
  db: ['lib'],
  lib: [],
});

/** @typedef {keyof typeof MAY_IMPORT} Layer */

/** @param {string} name @returns {name is Layer} */
function isLayer(name) {
  return Object.hasOwn(MAY_IMPORT, name);
}

/**
 * The layer a file sits in, or undefined outside them.
 * @param {string} srcRoot absolute path of api/src
 * @param {string} file absolute path
 * @returns {Layer | undefined}
 */
export function apiLayer(srcRoot, file) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const parts = relative.split(path.sep);
  if (parts.length < 2) return undefined;
  const first = parts[0] ?? '';
  return isLayer(first) ? first : undefined;
}

/**
 * Why a file in `from` may not import one in `to`, or undefined when it may.
 * @param {Layer} from
 * @param {Layer} to
 */
export function apiLayerViolation(from, to) {
  if (from === to) return undefined;
  /** @type {readonly string[]} */
  const allowed = MAY_IMPORT[from];
  if (allowed.includes(to)) return undefined;
  if (to === 'services') {
    return `${from}/ never imports services/: services sit above ${from}/ and call it, not the other way round.`;
  }
  return `${from}/ does not import ${to}/: imports run routes → services → adapters → repositories → db (plugins/ beside the routes, importing no service).`;
}

const QUERY_STARTERS = new Set([
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'selectNoFrom',
]);

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: {
      description:
        "Keeps the server's layers one-way (routes → services → adapters → repositories → db).",
    },
    schema: [
      {
        type: 'object',
        properties: { srcRoot: { type: 'string' } },
        required: ['srcRoot'],
        additionalProperties: false,
      },
    ],
    messages: {
      layer: '{{reason}}',
      routeSql:
        'A route file runs no SQL: move the query into a repository (repositories/) and call it.',
    },
  },
  create(context) {
    const { srcRoot } = /** @type {{ srcRoot: string }} */ (context.options[0]);
    const from = apiLayer(srcRoot, context.filename);
    if (from === undefined) return {};
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (from === 'routes' && (source.value === 'kysely' || source.value.startsWith('kysely/'))) {
        context.report({ node: source, messageId: 'routeSql' });
        return;
      }
      if (!source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), source.value);
      const to = apiLayer(srcRoot, target);
      if (to === undefined) return;
      const reason = apiLayerViolation(from, to);
      if (reason !== undefined)
        context.report({ node: source, messageId: 'layer', data: { reason } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      MemberExpression: (node) => {
        if (from !== 'routes') return;
        if (node.property.type === 'Identifier' && QUERY_STARTERS.has(node.property.name)) {
          context.report({ node: node.property, messageId: 'routeSql' });
        }
      },
    };
  },
};

export default { rules: { 'api-layers': rule } };
