import { sql, type Kysely } from 'kysely';

// The billing customer: the name, address and tax ID that go on invoices. One row each per organization; the
// billing email recipients stay on the organization (one source of truth).
const statements = [
  `CREATE TABLE billing_customers (
    organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    billing_name text,
    address_line1 text,
    address_line2 text,
    city text,
    state text,
    postal_code text,
    country text CHECK (country IS NULL OR country ~ '^[A-Z]{2}$'),
    updated_at timestamptz NOT NULL DEFAULT now(),
    -- An address is all there (line1, city, postal code, country) or not there at all.
    CHECK (
      (address_line1 IS NULL AND address_line2 IS NULL AND city IS NULL AND state IS NULL
        AND postal_code IS NULL AND country IS NULL)
      OR (address_line1 IS NOT NULL AND city IS NOT NULL AND postal_code IS NOT NULL
        AND country IS NOT NULL)
    )
  )`,
  `CREATE TABLE tax_ids (
    organization_id uuid PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
    type text NOT NULL,
    value text NOT NULL CHECK (length(value) > 0),
    country text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
