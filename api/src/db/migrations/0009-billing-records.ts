import { sql, type Kysely } from 'kysely';

const statements = [
  // Invoice numbers were "ML-" + the first eight hex digits of the organization id + a running count:
  // two organizations sharing those digits collided on the unique number and their cycle close failed.
  // Each organization now draws a prefix once, from one global sequence, and keeps it (unique). Those
  // that already have invoices keep the prefix their numbers carry, so existing numbers stay as they
  // are and their next invoice continues the series; the others draw one on their first invoice.
  `CREATE SEQUENCE invoice_prefix_seq`,
  `ALTER TABLE organizations ADD COLUMN invoice_prefix text UNIQUE`,
  `UPDATE organizations AS org
     SET invoice_prefix = first.prefix
     FROM (
       SELECT DISTINCT ON (organization_id) organization_id, split_part(number, '-', 2) AS prefix
       FROM invoices
       ORDER BY organization_id, sequence
     ) AS first
     WHERE first.organization_id = org.id`,

  // Usage reported after its cycle closed. A cycle closes only after a grace window for late events;
  // what arrives later still is billed on the next invoice, as the difference between what the cycle's
  // usage costs now and what was billed for it, by the rules the cycle closed under.
  // What each close read of a cycle's roll-ups, row for row: what was billed. A table of its own, so
  // that closing never writes a row that ingestion is adding to.
  `CREATE TABLE usage_cycle_billed (
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
  // The rules each cycle closed under: plan, spend cap, and the projects per-project quotas count.
  `CREATE TABLE closed_cycles (
    organization_id uuid NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
    cycle_start timestamptz NOT NULL,
    cycle_end timestamptz NOT NULL,
    plan_id text NOT NULL,
    usage_billing_enabled boolean NOT NULL,
    projects jsonb NOT NULL,
    closed_at timestamptz NOT NULL,
    PRIMARY KEY (organization_id, cycle_start)
  )`,
  // The earliest closed cycle that received usage after its close and has not billed it yet; set by
  // ingestion in the statement that takes the subscription's row lock, so a close cannot slip between.
  `ALTER TABLE subscriptions ADD COLUMN late_usage_since timestamptz`,
  // Cycles closed before this upgrade billed their roll-ups as they stand, under the rules of their
  // invoice; their spend cap and projects are not on record, so today's stand in for them.
  `INSERT INTO usage_cycle_billed
     SELECT usage.organization_id, usage.cycle_start, usage.metric, usage.project_id, usage.resource,
            usage.usage_sum, usage.usage_max, usage.samples
     FROM usage_cycle AS usage
     JOIN subscriptions AS sub ON sub.organization_id = usage.organization_id
     WHERE usage.cycle_start < sub.current_period_start`,
  `INSERT INTO closed_cycles
     SELECT invoice.organization_id, invoice.period_start, invoice.period_end, invoice.plan_id,
            sub.usage_billing_enabled,
            coalesce((SELECT jsonb_agg(jsonb_build_object('ref', project.ref, 'name', project.name)
                                       ORDER BY project.ref)
                      FROM projects AS project
                      WHERE project.organization_id = invoice.organization_id), '[]'::jsonb),
            invoice.finalized_at
     FROM invoices AS invoice
     JOIN subscriptions AS sub ON sub.organization_id = invoice.organization_id`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
