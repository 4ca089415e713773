import { sql, type Kysely } from 'kysely';

// Plain SQL, one statement at a time (the embedded database prepares each), so that the embedded database and
// a PostgreSQL server run exactly the same text.
const statements = [
  `
    CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email text NOT NULL UNIQUE CHECK (email = lower(email)),
    name text NOT NULL,
    password_hash text NOT NULL,
    free_project_limit integer NOT NULL DEFAULT 2 CHECK (free_project_limit >= 0),
    created_at timestamptz NOT NULL DEFAULT now()
    )
  `,
  `
    CREATE TABLE sessions (
    id text PRIMARY KEY,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at timestamptz NOT NULL DEFAULT now(),
    expires_at timestamptz NOT NULL,
    last_seen_at timestamptz NOT NULL
    )
  `,
  `
    CREATE INDEX sessions_user_id_idx ON sessions(user_id)
  `,
  `
    CREATE TABLE organizations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    slug text NOT NULL UNIQUE,
    name text NOT NULL,
    billing_email text,
    additional_billing_emails text[] NOT NULL DEFAULT '{}',
    managed_by text NOT NULL DEFAULT 'platform'
      CHECK (managed_by IN ('platform', 'vercel-marketplace', 'aws-marketplace')),
    partner_id text,
    restriction_status text
      CHECK (restriction_status IN ('grace_period', 'grace_period_over', 'restricted')),
    restriction_data jsonb,
    has_oriole_project boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
    )
  `,
  `
    CREATE TABLE memberships (
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('owner', 'administrator', 'developer', 'read_only')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, user_id)
    )
  `,
  `
    CREATE INDEX memberships_user_id_idx ON memberships(user_id)
  `,
  `
    CREATE TABLE subscriptions (
    organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    plan_id text NOT NULL CHECK (plan_id IN ('free', 'pro', 'team', 'enterprise')),
    usage_billing_enabled boolean NOT NULL,
    billing_via_partner boolean NOT NULL DEFAULT false,
    billing_partner text CHECK (billing_partner IN ('aws', 'fly', 'vercel_marketplace')),
    payment_method_type text NOT NULL DEFAULT 'card' CHECK (payment_method_type IN ('card', 'invoice')),
    billing_cycle_anchor timestamptz NOT NULL,
    current_period_start timestamptz NOT NULL,
    current_period_end timestamptz NOT NULL,
    customer_balance_cents bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK (current_period_end > current_period_start),
    -- Free is always capped; team and enterprise always have the spend cap off.
    CHECK (plan_id <> 'free' OR usage_billing_enabled = false),
    CHECK (plan_id NOT IN ('team', 'enterprise') OR usage_billing_enabled = true)
    )
  `,
  `
    CREATE TABLE projects (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    ref text NOT NULL UNIQUE,
    name text NOT NULL,
    status text NOT NULL
      CHECK (status IN ('ACTIVE_HEALTHY', 'COMING_UP', 'INACTIVE', 'GOING_DOWN')),
    compute_size text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
    )
  `,
  `
    CREATE INDEX projects_organization_id_idx ON projects(organization_id)
  `,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
