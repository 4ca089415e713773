// @ts-check
/**
 * The web app's one-way rule (style.md, "the shape of the house"), as a local ESLint rule.
 *
 * `app/` composes; a feature is a folder directly under `web/src/features/` and imports neither `app/`
 * nor another feature; the shared layers below them (components/, data/, lib/, layout/, payments/,
 * session/, billing-forms/) import no feature and no `app/`.
 *
 * Granularity: `features/billing/` is ONE feature, the billing page. Its section folders
 * (subscription/, invoices/, address/, …) are parts of it and may import one another. Whatever another
 * feature needs from it moves down to a shared layer.
 *
 * The web app imports its own modules by relative path only (no aliases), so a relative specifier
 * resolved against the importing file names the imported module exactly; nothing else is checked.
 * A local rule rather than eslint-plugin-import-x: that plugin's resolver is a native binary per
 * platform, which the lock file cannot describe for platforms the registry mirror does not serve.
 */
import path from 'node:path';

const SHARED_LAYERS = new Set([
  'components',
  'data',
  'lib',
  'layout',
  'payments',
  'session',
  'billing-forms',
]);

/**
 * Where a file sits in the web app: `{ layer, feature }`, or undefined outside `web/src`.
 * @param {string} srcRoot absolute path of web/src
 * @param {string} file absolute path
 * @returns {{ layer: string, feature?: string } | undefined}
 */
export function webPlace(srcRoot, file) {
  const relative = path.relative(srcRoot, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const [layer, second] = relative.split(path.sep);
  if (layer === undefined) return undefined;
  if (layer === 'features') return { layer, feature: second };
  return { layer };
}

/**
 * Why `from` may not import `to`, or undefined when it may.
 * @param {{ layer: string, feature?: string }} from
 * @param {{ layer: string, feature?: string }} to
 */
export function layerViolation(from, to) {
  if (from.layer === 'features') {
    if (to.layer === 'app') {
      return 'A feature never imports app/: app/ composes features, not the other way round.';
    }
    if (to.layer === 'features' && to.feature !== from.feature) {
      return 'A feature imports no other feature: move what both need down (components/, data/, lib/, …) or compose them in app/.';
    }
    return undefined;
  }
  if (SHARED_LAYERS.has(from.layer) && (to.layer === 'features' || to.layer === 'app')) {
    return `${from.layer}/ is shared below the features: it imports neither a feature nor app/.`;
  }
  return undefined;
}

/** @type {import('eslint').Rule.RuleModule} */
const rule = {
  meta: {
    type: 'problem',
    docs: { description: "Keeps the web app's layers one-way (app → features → shared)." },
    schema: [
      {
        type: 'object',
        properties: { srcRoot: { type: 'string' } },
        required: ['srcRoot'],
        additionalProperties: false,
      },
    ],
    messages: { layer: '{{reason}}' },
  },
  create(context) {
    const { srcRoot } = /** @type {{ srcRoot: string }} */ (context.options[0]);
    const from = webPlace(srcRoot, context.filename);
    if (from === undefined) return {};
    /** @param {import('estree').Node | null | undefined} source */
    const check = (source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      if (!source.value.startsWith('.')) return;
      const target = path.resolve(path.dirname(context.filename), source.value);
      const to = webPlace(srcRoot, target);
      if (to === undefined) return;
      const reason = layerViolation(from, to);
      if (reason !== undefined)
        context.report({ node: source, messageId: 'layer', data: { reason } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

export default { rules: { 'web-layers': rule } };
