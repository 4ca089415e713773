import { sql, type Kysely } from 'kysely';

// Product decisions §12: billing mail. One row per (event, recipient), written in the transaction that
// decides the event with the event's facts (`payload`), delivered after commit by the outbox worker,
// which renders it with the server's public URL and keeps what it sent (`html`, `text`). `event_key` names the event once ("invoice.finalized:in_…"): the unique key makes a
// second decision of the same event (the job run again, a webhook twice) write nothing.
// A worker claims a row for a short lease it writes itself (`claimed_until`); a row whose lease ran out
// (the process stopped mid-delivery) is claimed again. `message_id` is the Message-ID every attempt of the
// row sends, so a receiver can tell a repeat that a crash after the hand-over could cause.
const statements = [
  `CREATE TABLE email_outbox (
    id text PRIMARY KEY,
    organization_id uuid REFERENCES organizations(id) ON DELETE CASCADE,
    event text NOT NULL,
    event_key text NOT NULL,
    recipient text NOT NULL,
    subject text NOT NULL,
    payload jsonb NOT NULL,
    html text,
    text text,
    message_id text NOT NULL,
    created_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    claimed_until timestamptz,
    delivered_at timestamptz,
    failed_at timestamptz,
    last_error text,
    CONSTRAINT email_outbox_once UNIQUE (event_key, recipient)
  )`,
  `CREATE INDEX email_outbox_due ON email_outbox (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL`,
  `CREATE INDEX email_outbox_recipient ON email_outbox (recipient, created_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
