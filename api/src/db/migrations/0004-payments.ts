import { sql, type Kysely } from 'kysely';

// Payments (decision 004): captcha tokens, card setups, processed provider events, the provider's customers,
// and the built-in simulator's setup intents and 3-D Secure challenges.
const statements = [
  // Built-in captcha: only a hash of the token is kept; consuming it is one DELETE ... RETURNING.
  `CREATE TABLE captcha_tokens (
    token_hash text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX captcha_tokens_expires_idx ON captcha_tokens(expires_at)`,

  // A card setup started by an organization; the card is recorded once the provider confirms it.
  `CREATE TABLE setup_intents (
    id text PRIMARY KEY,
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    provider text NOT NULL,
    provider_setup_intent_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('created', 'recorded')),
    -- The card it recorded (no foreign key: a card removed later must not be recorded again).
    payment_method_id text,
    created_by uuid REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (provider, provider_setup_intent_id),
    CHECK ((status = 'recorded') = (payment_method_id IS NOT NULL))
  )`,
  `CREATE INDEX setup_intents_org_idx ON setup_intents(organization_id)`,

  // Provider events already applied: a replay is recognised by its id.
  `CREATE TABLE payment_events (
    id text PRIMARY KEY,
    provider text NOT NULL,
    type text NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
  )`,

  // The provider's customer object of each organization (Stripe keeps cards on a customer).
  `CREATE TABLE provider_customers (
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    provider text NOT NULL,
    provider_customer_id text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, provider),
    UNIQUE (provider, provider_customer_id)
  )`,

  // Charges: what the provider was asked to charge, who asked, what to apply to the profile on success.
  `ALTER TABLE charges ADD COLUMN provider_payment_method_id text`,
  `ALTER TABLE charges ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE SET NULL`,
  `ALTER TABLE charges ADD COLUMN profile_update jsonb`,
  `ALTER TABLE charges ADD CONSTRAINT charges_invoice_purpose
    CHECK ((purpose = 'invoice') = (invoice_id IS NOT NULL))`,
  `CREATE INDEX charges_provider_ref_idx ON charges(provider_ref) WHERE provider_ref IS NOT NULL`,
  `CREATE INDEX charges_org_idx ON charges(organization_id, created_at)`,

  // The simulator, a provider of its own.
  `CREATE TABLE simulator_setup_intents (
    id text PRIMARY KEY,
    client_secret text NOT NULL UNIQUE,
    status text NOT NULL
      CHECK (status IN ('requires_payment_method', 'requires_action', 'succeeded', 'canceled')),
    payment_method_id text,
    last_error text,
    metadata jsonb NOT NULL DEFAULT '{}',
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK (status NOT IN ('requires_action', 'succeeded') OR payment_method_id IS NOT NULL)
  )`,
  `CREATE UNIQUE INDEX simulator_payment_intents_secret_idx ON simulator_payment_intents(client_secret)`,
  `ALTER TABLE simulator_payment_intents ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`,
  `CREATE TABLE simulator_challenges (
    id text PRIMARY KEY,
    intent_type text NOT NULL CHECK (intent_type IN ('setup', 'payment')),
    intent_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'completed', 'failed', 'canceled')),
    created_at timestamptz NOT NULL DEFAULT now(),
    resolved_at timestamptz
  )`,
  `CREATE UNIQUE INDEX simulator_challenges_one_pending
    ON simulator_challenges(intent_type, intent_id) WHERE status = 'pending'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
