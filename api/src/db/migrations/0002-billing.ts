import { sql, type Kysely } from 'kysely';

// The billing engine's tables: what projects run, what they report, what was invoiced and charged.
const statements = [
  `CREATE TABLE app_meta (
    key text PRIMARY KEY,
    value text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE project_compute_resources (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('read_replica', 'branch')),
    compute_size text NOT NULL,
    started_at timestamptz NOT NULL,
    ended_at timestamptz,
    CHECK (ended_at IS NULL OR ended_at > started_at)
  )`,
  `CREATE INDEX project_compute_resources_org_idx ON project_compute_resources(organization_id)`,
  `CREATE TABLE project_addons (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    addon text NOT NULL,
    variant text NOT NULL,
    started_at timestamptz NOT NULL,
    ended_at timestamptz,
    CHECK (ended_at IS NULL OR ended_at > started_at)
  )`,
  `CREATE INDEX project_addons_org_idx ON project_addons(organization_id)`,
  // Raw events, idempotent by the reporter's event id.
  `CREATE TABLE usage_events (
    event_id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    metric text NOT NULL,
    resource text NOT NULL DEFAULT '',
    usage numeric NOT NULL CHECK (usage >= 0),
    occurred_at timestamptz NOT NULL,
    -- The billing cycle the event counted toward; null before the subscription began.
    cycle_start timestamptz,
    received_at timestamptz NOT NULL DEFAULT now()
  )`,
  // The daily roll-up the engine and the usage page read; kept in step with usage_events in one statement.
  `CREATE TABLE usage_daily (
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    day date NOT NULL,
    metric text NOT NULL,
    project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    resource text NOT NULL DEFAULT '',
    usage_sum numeric NOT NULL,
    usage_max numeric NOT NULL,
    samples integer NOT NULL,
    PRIMARY KEY (organization_id, day, metric, project_id, resource)
  )`,
  // The same events rolled up per billing cycle: what the engine prices, a few rows per project and metric.
  `CREATE TABLE usage_cycle (
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    cycle_start timestamptz NOT NULL,
    metric text NOT NULL,
    project_id uuid NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    resource text NOT NULL DEFAULT '',
    usage_sum numeric NOT NULL,
    usage_max numeric NOT NULL,
    samples integer NOT NULL,
    PRIMARY KEY (organization_id, cycle_start, metric, project_id, resource)
  )`,
  `CREATE TABLE payment_methods (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    provider text NOT NULL,
    provider_payment_method_id text NOT NULL,
    brand text NOT NULL,
    last4 text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
    exp_month integer NOT NULL CHECK (exp_month BETWEEN 1 AND 12),
    exp_year integer NOT NULL,
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, provider_payment_method_id)
  )`,
  `CREATE INDEX payment_methods_org_idx ON payment_methods(organization_id)`,
  `CREATE UNIQUE INDEX payment_methods_one_default ON payment_methods(organization_id) WHERE is_default`,
  `CREATE TABLE invoices (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    number text NOT NULL UNIQUE,
    -- 1, 2, 3… per organization in the order cycles close: pages are ranges of it, whatever their depth.
    sequence integer NOT NULL CHECK (sequence > 0),
    status text NOT NULL CHECK (status IN ('draft', 'open', 'paid', 'void', 'uncollectible')),
    period_start timestamptz NOT NULL,
    period_end timestamptz NOT NULL,
    subtotal_cents bigint NOT NULL,
    credit_applied_cents bigint NOT NULL DEFAULT 0 CHECK (credit_applied_cents >= 0),
    amount_due_cents bigint NOT NULL CHECK (amount_due_cents >= 0),
    amount_paid_cents bigint NOT NULL DEFAULT 0,
    payment_attempted boolean NOT NULL DEFAULT false,
    attempt_count integer NOT NULL DEFAULT 0,
    next_payment_attempt_at timestamptz,
    billing_name text,
    billing_address jsonb,
    tax_id jsonb,
    billing_email text,
    plan_id text NOT NULL,
    finalized_at timestamptz NOT NULL,
    paid_at timestamptz,
    voided_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (subtotal_cents - credit_applied_cents = amount_due_cents),
    -- A cycle is billed once, whatever runs twice.
    UNIQUE (organization_id, period_start),
    UNIQUE (organization_id, sequence)
  )`,
  `CREATE INDEX invoices_retry_idx ON invoices(next_payment_attempt_at) WHERE status = 'open'`,
  `CREATE TABLE invoice_lines (
    invoice_id text NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    position integer NOT NULL,
    description text NOT NULL,
    amount_cents bigint NOT NULL,
    amount_before_discount_cents bigint NOT NULL,
    unit_price_desc text,
    usage_metric text,
    usage_original numeric,
    metadata jsonb NOT NULL,
    breakdown jsonb NOT NULL,
    PRIMARY KEY (invoice_id, position)
  )`,
  // Every attempt to move money, keyed so that a retry of the same attempt charges once.
  `CREATE TABLE charges (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    invoice_id text REFERENCES invoices(id) ON DELETE CASCADE,
    purpose text NOT NULL CHECK (purpose IN ('invoice', 'top_up')),
    amount_cents bigint NOT NULL CHECK (amount_cents > 0),
    payment_method_id text,
    idempotency_key text NOT NULL UNIQUE,
    status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'requires_action')),
    provider_ref text,
    failure_message text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX charges_invoice_idx ON charges(invoice_id)`,
  // The built-in payment simulator is a provider of its own: it keeps its cards and intents apart.
  `CREATE TABLE simulator_payment_methods (
    id text PRIMARY KEY,
    card_number text NOT NULL,
    brand text NOT NULL,
    exp_month integer NOT NULL,
    exp_year integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE simulator_payment_intents (
    id text PRIMARY KEY,
    idempotency_key text UNIQUE,
    amount_cents bigint NOT NULL,
    payment_method_id text NOT NULL,
    status text NOT NULL,
    failure_message text,
    client_secret text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
