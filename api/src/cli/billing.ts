import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { emailOutboxQuerySchema, usageEventsBatchSchema } from '@meterline/domain';
import { systemClock, type Clock } from '../clock.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { Failure } from '../lib/failure.ts';
import { listOutbox } from '../repositories/email-outbox.ts';
import { billingJobConcurrency, runBillingJobs } from '../services/billing/run-billing-jobs.ts';
import { createEmailTransport } from '../adapters/email-transport.ts';
import { deliverDueEmails } from '../services/notifications/outbox-worker.ts';
import { OPERATOR_CLI } from '../repositories/record-audit.ts';
import { voidInvoice } from '../services/invoices/void-invoice.ts';
import { createPaymentGateway } from '../adapters/create-gateway.ts';
import { parseDay, surveysCsv } from '../services/surveys/export-surveys.ts';
import { refuseEventsOutsideTimeBounds } from '../services/usage/event-time-bounds.ts';
import { ingestUsageEvents } from '../services/usage/ingest-usage-events.ts';

const USAGE = `Operator commands of the billing engine.

  npm run billing -- close-cycle --org <slug> [--at <time>] [--grace <minutes>]
                                                              close the organization's ended cycles at <time>
  npm run billing -- run [--at <time>] [--grace <minutes>]    one pass of the billing job for everyone
  npm run billing -- void-invoice --invoice <id> [--at <time>]  forgive an open invoice
  npm run billing -- ingest --file <events.json> [--at <time>]  ingest a batch of usage events ({"events": [...]}),
                                                              each stamped at most 60 days before <time> and
                                                              at most 10 minutes after (else none is stored)
  npm run billing -- surveys --since <YYYY-MM-DD>             the exit and upgrade survey answers since that
                                                              day (UTC), as CSV with a header row
  npm run billing -- emails [--to <address>] [--since <time>]  the billing mail outbox, newest first

<time> is an ISO date or date-time in UTC (2026-12-01 or 2026-12-01T00:00:00Z); it defaults to now.
A cycle closes once it ended at least BILLING_CLOSE_GRACE_MINUTES (default 60) before <time>, the
window left for late usage; --grace <minutes> sets another (--grace 0 closes a cycle at its end).
The store is the one of DATABASE_URL or DATA_DIR, as for npm start.`;

function parseTime(value: string | undefined): Date {
  if (!value) return systemClock.now();
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new UsageError(`--at: "${value}" is not a date`);
  return date;
}

function parseGrace(value: string | undefined, configured: number): number {
  if (value === undefined) return configured;
  if (!/^\d+$/.test(value))
    throw new UsageError(`--grace: "${value}" is not a whole number of minutes`);
  return Number(value);
}

function parseSince(value: string | undefined): Date {
  if (value === undefined) throw new UsageError('surveys needs --since <YYYY-MM-DD>');
  const day = parseDay(value);
  if (!day) throw new UsageError(`--since: "${value}" is not a day: write it as YYYY-MM-DD (UTC)`);
  return day;
}

class UsageError extends Error {}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      org: { type: 'string' },
      at: { type: 'string' },
      invoice: { type: 'string' },
      file: { type: 'string' },
      grace: { type: 'string' },
      since: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const command = positionals[0];
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  // Checked before the store is opened: a typo answers at once.
  const since = command === 'surveys' ? parseSince(values.since) : null;
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    schema: config.DATABASE_SCHEMA,
  });
  try {
    await migrateToLatest(database.db, config.DATABASE_SCHEMA);
    const at = parseTime(values.at);
    // The simulator dates its records at the billing time asked for; whether a charge is still in
    // flight, or a backoff has passed, goes by the real clock.
    const grace = parseGrace(values.grace, config.BILLING_CLOSE_GRACE_MINUTES);
    const clock: Clock = { now: () => at };
    const gateway = createPaymentGateway(database.db, clock, config);
    const deps = { db: database.db, gateway, clock: systemClock };
    // What a command decided to tell the billing recipients goes out before it ends (the server's
    // outbox worker would otherwise send it at its next pass).
    const deliverMail = async () => {
      const transport = createEmailTransport(config);
      try {
        await deliverDueEmails(database.db, transport, {
          from: config.EMAIL_FROM,
          baseUrl: config.PUBLIC_URL,
        });
      } finally {
        await transport.close();
      }
    };
    switch (command) {
      case 'close-cycle': {
        if (!values.org) throw new UsageError('close-cycle needs --org <slug>');
        const org = await database.db
          .selectFrom('organizations')
          .select('id')
          .where('slug', '=', values.org)
          .executeTakeFirst();
        if (!org) throw new UsageError(`No organization ${values.org}`);
        const report = await runBillingJobs(deps, at, org.id, grace);
        await deliverMail();
        console.log(JSON.stringify({ command, org: values.org, at: at.toISOString(), ...report }));
        break;
      }
      case 'run': {
        const report = await runBillingJobs(deps, at, undefined, grace, {
          concurrency: billingJobConcurrency(database.kind),
        });
        await deliverMail();
        console.log(JSON.stringify({ command, at: at.toISOString(), ...report }));
        break;
      }
      case 'void-invoice': {
        if (!values.invoice) throw new UsageError('void-invoice needs --invoice <id>');
        const result = await voidInvoice(deps, values.invoice, at, OPERATOR_CLI);
        console.log(JSON.stringify({ command, invoice: values.invoice, ...result }));
        if (result.status === 'refused') process.exitCode = 1;
        break;
      }
      case 'ingest': {
        if (!values.file) throw new UsageError('ingest needs --file <events.json>');
        const batch = usageEventsBatchSchema.safeParse(
          JSON.parse(readFileSync(values.file, 'utf8')),
        );
        if (!batch.success) {
          throw new UsageError(
            `${values.file}: ${batch.error.issues[0]?.message ?? 'invalid batch'}`,
          );
        }
        // Bounded as the endpoint bounds them, by the moment the batch is ingested at.
        refuseEventsOutsideTimeBounds(batch.data.events, at);
        const result = await ingestUsageEvents(database.db, batch.data.events, {
          at,
          onError: (organizationId, error) =>
            console.error(
              `Restriction or spend alert of ${organizationId} not checked: ${String(error)}`,
            ),
        });
        console.log(JSON.stringify({ command, ...result }));
        break;
      }
      case 'emails': {
        const query = emailOutboxQuerySchema.safeParse({
          to: values.to,
          since: values.since === undefined ? undefined : parseTime(values.since).toISOString(),
          limit: 500,
        });
        if (!query.success) throw new UsageError(query.error.issues[0]?.message ?? 'bad query');
        const { emails } = await listOutbox(database.db, query.data);
        for (const email of emails) {
          const state = email.delivered_at ? 'delivered' : `waiting (${email.attempts} attempts)`;
          console.log(
            `${email.created_at}  ${email.event.padEnd(18)} ${email.to.padEnd(32)} ${state.padEnd(22)} ${email.subject}`,
          );
        }
        if (emails.length === 0) console.log('The outbox is empty.');
        break;
      }
      case 'surveys': {
        if (!since) throw new UsageError('surveys needs --since <YYYY-MM-DD>');
        process.stdout.write(await surveysCsv(database.db, since));
        break;
      }
      default:
        throw new UsageError(`Unknown command ${command}\n\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
}

try {
  await main();
} catch (error) {
  // A service's refusal (an unknown project ref) is the operator's to fix; a provider fault is not.
  const refused = error instanceof Failure && error.code !== 'provider_unavailable';
  if (error instanceof ConfigError || error instanceof UsageError || refused) {
    console.error(error.message);
    process.exit(2);
  }
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
