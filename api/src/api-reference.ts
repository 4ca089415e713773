import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import { ACCESS_TOKEN_REQUESTS_PER_MINUTE } from '@meterline/domain';
import { API_REFERENCE_CSS } from './api-reference-style.ts';
import { CSRF_COOKIE, CSRF_HEADER } from './plugins/csrf.ts';
import { SESSION_COOKIE } from './plugins/session.ts';

/**
 * What the API reference (`/platform/docs`) says besides the operations: the product's name, how a
 * client authenticates (with a session it can try in a terminal), the resources its operations are
 * grouped by, and the page's look. The operations themselves come from the routes (openapi.ts).
 */

/** What the reference says before its operations, with curl examples that name `BASE`, its server. */
function description(BASE: string): string {
  return `The platform API behind the Meterline billing console: subscriptions, the upcoming invoice, past invoices and their PDFs, payment methods, credits, usage, billing address and tax ID. The web app uses nothing else.

Money is integer cents (the top-up amount alone is whole US dollars); times are unix seconds. Errors answer \`{"message": "…"}\`; a 400 names the field and the rule it breaks. Each operation lists its security, the permission it needs in the organization of its path (\`x-permission\`, \`none\` outside an organization) and the errors it can answer.

## Authentication

| scheme | what it is | used by |
|---|---|---|
| \`session\` | the httpOnly cookie \`${SESSION_COOKIE}\` that signing in sets | every operation of a signed-in user |
| \`csrfToken\` | the \`${CSRF_HEADER}\` header, checked against the httpOnly cookie \`${CSRF_COOKIE}\` | every POST, PUT, PATCH and DELETE sent with cookies, signing in included |
| \`accessToken\` | \`Authorization: Bearer mlt_…\`, an organization's access token | the GET operations of that organization's billing data that list it |
| \`operatorKey\` | \`Authorization: Bearer <METERING_API_KEY>\` | the metering endpoint, \`POST /internal/usage-events\` |
| \`stripeSignature\` | Stripe's \`stripe-signature\` header | the Stripe webhook |

Behind TLS the cookies are \`Secure\` and named \`__Host-${SESSION_COOKIE}\` and \`__Host-${CSRF_COOKIE}\`. A session lasts \`SESSION_TTL_HOURS\` without use and at most \`SESSION_MAX_HOURS\`. A wrong operator key answers 401; an address that keeps sending wrong keys waits (429 with Retry-After).

### A session from a terminal

Keep the cookies in a jar, and ask for a CSRF token before each run of mutations: signing in replaces the CSRF secret, so a token from before it no longer matches.

\`\`\`sh
# 1. A CSRF token (this sets the ${CSRF_COOKIE} cookie it is checked against)
TOKEN=$(curl -s -c jar -b jar ${BASE}/platform/auth/csrf | jq -r .token)

# 2. Sign in: sets the ${SESSION_COOKIE} cookie (and a new CSRF secret)
curl -s -c jar -b jar -X POST ${BASE}/platform/auth/sign-in \\
  -H 'content-type: application/json' -H "${CSRF_HEADER}: $TOKEN" \\
  -d '{"email": "owner@example.com", "password": "billing-demo-2026"}'

# 3. Read with the cookie alone
curl -s -b jar ${BASE}/platform/organizations/acme-pro/billing/subscription

# 4. Change something: a token for the new secret, sent in the header
TOKEN=$(curl -s -c jar -b jar ${BASE}/platform/auth/csrf | jq -r .token)
curl -s -c jar -b jar -X PATCH ${BASE}/platform/organizations/acme-pro \\
  -H 'content-type: application/json' -H "${CSRF_HEADER}: $TOKEN" \\
  -d '{"billing_email": "billing@acme.example.com"}'
\`\`\`

Without the header a mutation answers 403 \`{"message": "Invalid csrf token"}\`; without the session, 401.

### An access token

An owner or administrator creates one under **Access tokens** in the organization (or with \`POST /platform/organizations/{slug}/tokens\`); it is shown once. It reads that organization's billing data, with no cookie and no CSRF token, until it expires or is revoked. To try an operation here, choose **Authorize**, paste the token under \`accessToken\`, then **Try it out**.

\`\`\`sh
curl -s ${BASE}/platform/organizations/acme-pro/billing/invoices/upcoming \\
  -H "authorization: Bearer $MLT_TOKEN"
\`\`\`

A write answers 403, another organization 404, an expired or revoked token 401, and more than ${ACCESS_TOKEN_REQUESTS_PER_MINUTE} requests in a minute 429 with Retry-After.

### The operator key

\`\`\`sh
curl -s -X POST ${BASE}/internal/usage-events \\
  -H "authorization: Bearer $METERING_API_KEY" -H 'content-type: application/json' \\
  -d '{"events": [{"id": "evt-0001", "project_ref": "acmepro1", "metric": "EGRESS",
                   "usage": 1500000000, "timestamp": 1795000000}]}'
# {"accepted": 1, "duplicates": 0}
\`\`\`

The OpenAPI document itself is at [/platform/openapi.json](/platform/openapi.json).`;
}

/** The document's `info`, its examples addressed to `base` (an origin, `http://host:port`). */
export function apiInfo(base: string) {
  return { title: 'Meterline platform API', description: description(base), version: '1.0.0' };
}

/** The resources, in the order a reader meets them; every operation carries one of these tags. */
export const API_TAGS = [
  { name: 'auth', description: 'Signing in and out, and the CSRF token of a browser session' },
  { name: 'profile', description: 'The signed-in user, their organizations and permissions' },
  { name: 'organizations', description: 'Organizations, their projects and members' },
  { name: 'projects', description: 'One project, and why it answers 402 while restricted' },
  { name: 'billing', description: 'Plans, the subscription, plan changes, the upcoming invoice' },
  { name: 'invoices', description: 'Past invoices, their PDFs, and paying an outstanding one' },
  { name: 'payments', description: 'Cards: adding, choosing the default, removing' },
  { name: 'credits', description: 'Buying prepaid credit' },
  { name: 'customer', description: 'The billing name, address and tax ID printed on invoices' },
  { name: 'usage', description: "The cycle's usage against the plan, and day by day" },
  { name: 'feedback', description: 'Exit and upgrade survey answers' },
  {
    name: 'webhook-endpoints',
    description:
      "The organization's signed webhooks: endpoints, test events, deliveries and resending (decision 014)",
  },
  {
    name: 'access-tokens',
    description:
      "The organization's access tokens for the billing read API (Authorization: Bearer)",
  },
  {
    name: 'audit-log',
    description: 'Who changed what in billing, when and from where; owners and administrators',
  },
  { name: 'partners', description: 'Links to the consoles of partners that bill an organization' },
  { name: 'internal', description: 'Metering: usage events reported with the operator key' },
  { name: 'webhooks', description: "The payment provider's events" },
  {
    name: 'operations',
    description: 'Probes for load balancers and orchestrators: liveness and readiness',
  },
  {
    name: 'simulator',
    description: 'The built-in payment simulator (card forms, 3-D Secure) when no provider is set',
  },
] as const;

export type ApiTag = (typeof API_TAGS)[number]['name'];

// The product's mark (web/src/components/logo.tsx), with its name beside it.
const LOGO = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 152 32" width="152" height="32">
<rect width="32" height="32" rx="8" fill="#2f5bd3"/>
<path d="M8 22V10l5 7 5-7v12" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>
<path d="M22 22v-8" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>
<text x="42" y="22" font-family="-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif" font-size="17" font-weight="600" fill="#f5f6f8">Meterline</text>
</svg>`;

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect width="32" height="32" rx="8" fill="#2f5bd3"/>
<path d="M8 22V10l5 7 5-7v12" fill="none" stroke="#fff" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/>
<path d="M22 22v-8" stroke="#fff" stroke-width="2.6" stroke-linecap="round"/>
</svg>`;

/**
 * What Swagger UI leaves unnamed: the logo image, the dark-mode button and the server list get names,
 * the page its main landmark, and the blocks that scroll sideways a place in the tab order.
 */
const JS = `
(function () {
  function name() {
    var root = document.getElementById('swagger-ui');
    if (root && !root.getAttribute('role')) root.setAttribute('role', 'main');
    var logo = document.querySelector('.topbar-wrapper img');
    if (logo && !logo.hasAttribute('alt')) logo.setAttribute('alt', 'Meterline API reference');
    var toggle = document.querySelector('.dark-mode-toggle button');
    if (toggle && !toggle.hasAttribute('aria-label')) toggle.setAttribute('aria-label', 'Dark mode');
    var servers = document.querySelector('select#servers');
    if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
    // Wide code and tables scroll inside themselves: a keyboard reaches them too.
    document.querySelectorAll('.renderedMarkdown pre, .renderedMarkdown table').forEach(function (wide) {
      if (!wide.hasAttribute('tabindex')) wide.setAttribute('tabindex', '0');
    });
  }
  new MutationObserver(name).observe(document.documentElement, { childList: true, subtree: true });
  name();
})();
`;

export const API_REFERENCE_UI: FastifySwaggerUiOptions = {
  routePrefix: '/platform/docs',
  theme: {
    title: 'API reference · Meterline',
    css: [{ filename: 'meterline.css', content: API_REFERENCE_CSS }],
    js: [{ filename: 'meterline.js', content: JS }],
    favicon: [
      {
        filename: 'favicon.svg',
        rel: 'icon',
        type: 'image/svg+xml',
        sizes: 'any',
        content: FAVICON,
      },
    ],
  },
  logo: { type: 'image/svg+xml', content: LOGO, href: '/platform/docs', target: '_self' },
  uiConfig: {
    docExpansion: 'list',
    // Deep links put a link inside each operation's summary button (nested controls, as axe says).
    deepLinking: false,
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    persistAuthorization: false,
    syntaxHighlight: { activate: true, theme: 'nord' },
  },
};
