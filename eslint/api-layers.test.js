// @ts-check
import { RuleTester } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, it } from 'vitest';
import apiLayers from './api-layers.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const SRC = '/repo/api/src';
const options = [{ srcRoot: SRC }];
// The TypeScript parser, so that type-only imports are held to the layers too.
const tester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2024, sourceType: 'module' },
});

tester.run('api-layers', apiLayers.rules['api-layers'], {
  valid: [
    // Down the layers, and within one.
    {
      filename: `${SRC}/routes/invoices.ts`,
      code: "import { closeCycle } from '../services/invoices/close-cycle.ts'; import { f } from '../plugins/errors.ts';",
      options,
    },
    {
      filename: `${SRC}/services/invoices/close-cycle.ts`,
      code: "import { insertInvoice } from '../../repositories/invoices.ts'; import { p } from '../charges/settle-charge.ts'; import { g } from '../../adapters/payment-gateway.ts';",
      options,
    },
    {
      filename: `${SRC}/adapters/simulator/cards.ts`,
      code: "import { tx } from '../../db/database.ts';",
      options,
    },
    {
      filename: `${SRC}/plugins/access.ts`,
      code: "import { findToken } from '../repositories/access-tokens.ts';",
      options,
    },
    // Files beside the layers are shared by all, and packages are not the layer rule's business.
    {
      filename: `${SRC}/repositories/charges.ts`,
      code: "import { Failure } from '../failure.ts'; import { sql } from 'kysely';",
      options,
    },
    // A route may call a repository function and use app.db; it just builds no query.
    {
      filename: `${SRC}/routes/organizations.ts`,
      code: 'const row = await findOrganization(app.db, id); const s = app.db.selectFromCache;',
      options,
    },
    // Files outside the layers are not checked.
    {
      filename: `${SRC}/app.ts`,
      code: "import routes from './routes/invoices.ts'; import { q } from 'kysely'; db.selectFrom('x');",
      options,
    },
  ],
  invalid: [
    {
      filename: `${SRC}/db/schema.ts`,
      code: "import type { EmailPayload } from '../services/email/email-payload.ts';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/repositories/charges.ts`,
      code: "import { auditContextJson } from '../services/audit/record-audit.ts';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/plugins/errors.ts`,
      code: "import { ProviderUnavailableError } from '../services/payments/payment-gateway.ts';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/services/surveys/record-survey.ts`,
      code: "import { NOT_FOUND_ORG } from '../../plugins/access.ts';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/services/billing/close-cycle.ts`,
      code: "export * from '../../routes/invoices.ts';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/adapters/stripe/stripe-gateway.ts`,
      code: "const m = import('../../services/payments/settle-charge.ts');",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/repositories/invoices.ts`,
      code: "import { gateway } from '../adapters/payment-gateway.ts';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    // Route files run no SQL: no query builder import, no statement built on a database handle.
    {
      filename: `${SRC}/routes/access-tokens.ts`,
      code: "import { sql } from 'kysely';",
      options,
      errors: [{ messageId: 'routeSql' }],
    },
    {
      filename: `${SRC}/routes/webhook-endpoints.ts`,
      code: "const rows = await app.db.selectFrom('webhook_endpoints').selectAll().execute();",
      options,
      errors: [{ messageId: 'routeSql' }],
    },
    {
      filename: `${SRC}/routes/access-tokens.ts`,
      code: "await trx.updateTable('access_tokens').set({ revoked_at: now }).execute();",
      options,
      errors: [{ messageId: 'routeSql' }],
    },
  ],
});
