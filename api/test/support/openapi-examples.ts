import { Candidates, type OpenApiDocument, type Operation } from './openapi-requests.ts';

/** Every operation of the document: its path, method and declaration. */
export function operations(document: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([url, methods]) =>
    Object.entries(methods).map(([method, operation]) => [url, method, operation] as const),
  ) as [string, string, Operation][];
}

/**
 * What a generator cannot invent: the demo world's names, a catalogue tax ID, working dates (acme-pro's,
 * with one of its invoices). `now` is the server's clock: a usage event is stamped an hour before it,
 * within the bounds an event's time must keep (60 days before its arrival, 10 minutes after).
 */
export function demoExamples(
  invoiceId: string | undefined,
  now: Date = new Date(),
): Record<string, unknown> {
  return {
    slug: 'acme-pro',
    invoiceId,
    ref: 'acmepro1',
    projectRef: 'acmepro1',
    project_ref: 'acmepro1',
    installationId: 'icfg_demo',
    challengeId: 'chl_sim_unknown',
    email: 'owner@example.com',
    password: 'not-the-password',
    payment_method_id: 'pm_unknown0',
    payment_method: 'pm_unknown0',
    payment_intent_id: 'pi_unknown0',
    // acme-pro is on this tier already: a generated change is refused (409) and changes nothing.
    tier: 'tier_pro',
    proration_date: 1_750_000_000,
    card_id: 'pm_unknown0',
    setup_intent_id: 'seti_unknown0',
    client_secret: 'seti_unknown0_secret_0',
    'idempotency-key': 'openapi-generated-1',
    start: '2025-01-01',
    end: '2025-01-31',
    since: '2026-01-01T00:00:00Z',
    // The audit log's filters and cursor.
    until: '2026-12-31',
    cursor: '1750000000000.aud_000000000000000000000000',
    to: 'billing@acme.example',
    timestamp: Math.floor(now.getTime() / 1000) - 3600,
    usage: 1,
    type: 'eu_vat',
    value: 'IE1234567T',
    country: 'IE',
    exp_year: 2099,
    number: '4242424242424242',
    cvc: '123',
    version: '2',
    // Webhook endpoints and access tokens (an unknown one answers 404), and a URL the schema accepts.
    id: new Candidates(['we_unknown0', 'tok_unknown0']),
    delivery_id: 'wd_unknown0',
    url: 'https://hooks.example.com/meterline',
  };
}
