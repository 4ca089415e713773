/**
 * Each operation's `operationId`, the name a generated client gives its method: derived from the method
 * and the path, so a new route gets one without anyone typing it, and stable while the path is.
 *
 * The rule reads the path as a phrase: `/platform` and the organization in the path (`/organizations/
 * {slug}/…`) are context, `auth`, `billing` and `internal` are sections, not nouns; a collection followed by
 * an id is one of it (`invoices/{invoiceId}` → Invoice), and so is what a change acts on (POST
 * `/tokens` → createAccessToken); a last segment that is a verb is the verb
 * (`…/pay` → payInvoice); otherwise the method is (GET a collection → list, GET → get, POST → create,
 * PUT → set, PATCH → update, DELETE → delete, HEAD → count). Segment names that read badly as nouns
 * have a word of their own, and the few paths the rule names poorly are named below.
 */

const SECTIONS = new Set(['platform', 'auth', 'billing', 'internal', 'integrations']);

/** A last segment that is what the operation does. */
const VERBS = new Set([
  'attach',
  'confirm',
  'export',
  'pay',
  'preview',
  'resend',
  'sign-in',
  'sign-out',
  'test',
  'top-up',
]);

/** Segments whose noun is not their name: the singular first, the collection after. */
const NOUNS: Record<string, [string, string]> = {
  payments: ['PaymentMethod', 'PaymentMethods'],
  'tax-ids': ['TaxId', 'TaxId'],
  tokens: ['AccessToken', 'AccessTokens'],
  webhooks: ['WebhookEndpoint', 'WebhookEndpoints'],
  csrf: ['CsrfToken', 'CsrfToken'],
  usage: ['Usage', 'Usage'],
  credits: ['Credits', 'Credits'],
  'audit-log': ['AuditLog', 'AuditLog'],
};

/** Names the rule would get wrong, by `METHOD path`. */
const NAMED: Record<string, string> = {
  'HEAD /platform/organizations/{slug}/billing/invoices': 'countInvoices',
  'GET /platform/organizations/{slug}/billing/invoices/upcoming': 'getUpcomingInvoice',
  'GET /platform/organizations/{slug}/usage/daily': 'getDailyUsage',
  'PUT /platform/organizations/{slug}/billing/subscription': 'changePlan',
  'POST /platform/organizations/{slug}/billing/subscription/preview': 'previewPlanChange',
  'POST /platform/organizations/{slug}/billing/subscription/confirm': 'confirmPlanChange',
  'DELETE /platform/organizations/{slug}/billing/subscription/scheduled-change':
    'cancelScheduledPlanChange',
  'PUT /platform/organizations/{slug}/payments/default': 'setDefaultPaymentMethod',
  'PUT /platform/organizations/{slug}/payments/backup': 'setBackupPaymentMethod',
  'DELETE /platform/organizations/{slug}/payments/backup': 'removeBackupPaymentMethod',
  'POST /platform/organizations/{slug}/payments/setup-intent': 'createSetupIntent',
  'POST /internal/usage-events': 'reportUsageEvents',
  'GET /internal/metrics': 'getMetrics',
  'GET /platform/organizations/{slug}/members/reached-free-project-limit':
    'listMembersAtFreeProjectLimit',
  'GET /platform/organizations/{slug}/billing/restriction-history': 'getRestrictionHistory',
  'POST /platform/organizations/{slug}/webhooks/{id}/rotate-secret': 'rotateWebhookEndpointSecret',
  'POST /platform/feedback/downgrade': 'recordDowngradeFeedback',
  'POST /platform/feedback/upgrade': 'recordUpgradeFeedback',
  'POST /platform/captcha': 'createCaptchaToken',
  'GET /platform/payments/config': 'getPaymentsConfig',
  'GET /platform/pay/invoices/{invoiceId}': 'getInvoiceByPayLink',
  'POST /platform/pay/invoices/{invoiceId}/pay': 'payInvoiceByPayLink',
  'POST /platform/webhooks/stripe': 'receiveStripeEvent',
  'POST /platform/simulator/challenges/{challengeId}': 'answerSimulatorChallenge',
  'POST /platform/simulator/payment-methods': 'createSimulatorPaymentMethod',
  'GET /platform/integrations/vercel/installations/{installationId}/link':
    'getVercelInstallationLink',
};

const pascal = (words: string) =>
  words
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');

const camel = (words: string) => {
  const name = pascal(words);
  return name.charAt(0).toLowerCase() + name.slice(1);
};

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}

const isParameter = (segment: string) => segment.startsWith('{');

/** The operationId of `method` on `url` (an OpenAPI path, `{name}` for its parameters). */
export function operationIdOf(method: string, url: string): string {
  const named = NAMED[`${method.toUpperCase()} ${url}`];
  if (named) return named;
  let segments = url.split('/').filter(Boolean);
  if (segments[0] === 'platform') segments = segments.slice(1);
  if (segments[0] === 'organizations' && segments[1] === '{slug}' && segments.length > 2) {
    segments = segments.slice(2);
  }
  const last = segments.at(-1) ?? '';
  const verb = VERBS.has(last) ? camel(last) : undefined;
  if (verb) segments = segments.slice(0, -1);
  // A change acts on one thing: POST /tokens creates a token, DELETE /payments removes a card.
  const reads = method.toLowerCase() === 'get' || method.toLowerCase() === 'head';
  const words: string[] = [];
  segments.forEach((segment, index) => {
    if (isParameter(segment) || (SECTIONS.has(segment) && (verb || index < segments.length - 1)))
      return;
    const one = isParameter(segments[index + 1] ?? '') || (!reads && index === segments.length - 1);
    const noun = NOUNS[segment];
    words.push(noun ? noun[one ? 0 : 1] : pascal(one ? singular(segment) : segment));
  });
  const nouns = words.join('');
  if (verb) return `${verb}${nouns}`;
  const collection = !isParameter(last) && /s$/.test(words.at(-1) ?? '');
  const byMethod: Record<string, string> = {
    get: collection ? 'list' : 'get',
    head: 'count',
    post: 'create',
    put: 'set',
    patch: 'update',
    delete: 'delete',
  };
  return `${byMethod[method.toLowerCase()] ?? method.toLowerCase()}${nouns}`;
}
