import { sql, type Kysely } from 'kysely';

// Decision 014: signed webhooks. An endpoint keeps its signing secret in the clear
// (the server signs with it; it is answered once, at creation or rotation, and never again). An event is
// written once per (organization, event key) in the transaction that decides it, with one delivery per
// subscribed enabled endpoint (unique per event and endpoint). A worker claims due deliveries with a lease
// it writes itself (`claimed_until`), like the email outbox; every attempt is kept in webhook_attempts.
// `retry_since` starts the 3 days of retries (a resend starts them again); `failing_since` on the
// endpoint is the first failure since its last success: 3 days of it and the endpoint is disabled.
const statements = [
  `CREATE TABLE webhook_endpoints (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    url text NOT NULL,
    description text NOT NULL DEFAULT '',
    events text[] NOT NULL,
    secret text NOT NULL,
    enabled boolean NOT NULL DEFAULT true,
    disabled_reason text,
    failing_since timestamptz,
    created_at timestamptz NOT NULL
  )`,
  `CREATE INDEX webhook_endpoints_organization ON webhook_endpoints (organization_id, created_at)`,
  `CREATE TABLE webhook_events (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    type text NOT NULL,
    event_key text NOT NULL,
    data jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    CONSTRAINT webhook_events_once UNIQUE (organization_id, event_key)
  )`,
  `CREATE TABLE webhook_deliveries (
    id text PRIMARY KEY,
    event_id text NOT NULL REFERENCES webhook_events(id) ON DELETE CASCADE,
    endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    retry_since timestamptz NOT NULL,
    next_attempt_at timestamptz NOT NULL,
    claimed_until timestamptz,
    delivered_at timestamptz,
    failed_at timestamptz,
    last_status integer,
    CONSTRAINT webhook_deliveries_once UNIQUE (event_id, endpoint_id)
  )`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL`,
  `CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at)`,
  `CREATE TABLE webhook_attempts (
    id text PRIMARY KEY,
    delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
    at timestamptz NOT NULL,
    response_status integer,
    duration_ms integer NOT NULL,
    response_excerpt text NOT NULL,
    error text
  )`,
  `CREATE INDEX webhook_attempts_delivery ON webhook_attempts (delivery_id, at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
