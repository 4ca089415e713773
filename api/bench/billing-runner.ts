/**
 * One billing-job process of `npm run bench -- --close-cycles N`: what an API process's scheduler does at
 * each tick (one pass of runBillingJobs at the current time, as many at once as the scheduler works on, the configured store and payment provider),
 * in a process of its own so that several start at once and each can be profiled
 * (BENCH_PROFILE=<dir> gives it node's --cpu-prof). It prints one JSON line: how long the pass took and
 * how much of the work this process did. It says `ready` once loaded and connected, and starts at a line
 * on its standard input.
 */
import { systemClock } from '../src/clock.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';
import { billingJobConcurrency, runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { createPaymentGateway } from '../src/adapters/create-gateway.ts';

const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  schema: config.DATABASE_SCHEMA,
});
try {
  const gateway = createPaymentGateway(database.db, systemClock, config);
  await database.db.selectFrom('subscriptions').select('organization_id').limit(1).execute();
  // Loaded and connected: the bench starts every process's pass at the same moment, as schedulers
  // already running would, so the time measured is the job's and not the process's start.
  console.log('ready');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  const began = performance.now();
  const report = await runBillingJobs(
    { db: database.db, gateway, clock: systemClock },
    systemClock.now(),
    undefined,
    config.BILLING_CLOSE_GRACE_MINUTES,
    { concurrency: billingJobConcurrency(database.kind) },
  );
  console.log(
    JSON.stringify({
      seconds: (performance.now() - began) / 1000,
      closed: report.closed.length,
      paid: report.paid.length,
      failed: report.failed.length,
      errors: report.errors,
    }),
  );
} finally {
  await database.close();
}
