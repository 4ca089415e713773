// @ts-check
import { RuleTester } from 'eslint';
import { describe, it } from 'vitest';
import webLayers from './web-layers.js';

RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const SRC = '/repo/web/src';
const options = [{ srcRoot: SRC }];
const tester = new RuleTester({ languageOptions: { ecmaVersion: 2024, sourceType: 'module' } });

tester.run('web-layers', webLayers.rules['web-layers'], {
  valid: [
    // Inside one feature, and the billing page's sections importing one another.
    {
      filename: `${SRC}/features/plan-panel/plan-panel.tsx`,
      code: "import { x } from './plan-cards';",
      options,
    },
    {
      filename: `${SRC}/features/billing/invoices/invoice-list.tsx`,
      code: "import { BillingSection } from '../billing-section';",
      options,
    },
    // A feature importing the shared layers.
    {
      filename: `${SRC}/features/upgrade-dialog/upgrade-dialog.tsx`,
      code: "import { q } from '../../data/subscription-preview-query'; import { B } from '../../components/ui/button';",
      options,
    },
    // app/ composes features.
    {
      filename: `${SRC}/app/routes.tsx`,
      code: "import { P } from '../features/plan-panel/plan-panel';",
      options,
    },
    // Packages are not the rule's business; tests and files outside web/src are not checked.
    {
      filename: `${SRC}/features/plan-panel/plan-panel.tsx`,
      code: "import { z } from 'zod';",
      options,
    },
    {
      filename: '/repo/api/src/app.ts',
      code: "import x from '../../web/src/app/routes';",
      options,
    },
  ],
  invalid: [
    {
      filename: `${SRC}/features/plan-panel/plan-panel.tsx`,
      code: "import { U } from '../upgrade-dialog/upgrade-dialog';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/features/billing/subscription/section.tsx`,
      code: "export { D } from '../../downgrade-flow/downgrade-flow';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/features/plan-panel/plan-panel.tsx`,
      code: "const m = import('../../app/billing-composition');",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/data/subscription-update-mutation.ts`,
      code: "export * from '../features/billing/billing-page';",
      options,
      errors: [{ messageId: 'layer' }],
    },
    {
      filename: `${SRC}/components/permission-notice.tsx`,
      code: "import { A } from '../app/organization-layout';",
      options,
      errors: [{ messageId: 'layer' }],
    },
  ],
});
