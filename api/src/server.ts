import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db/database.ts';
import { buildApp } from './app.ts';
import type { LogStream } from './log-options.ts';
import { BillingScheduler } from './services/billing/billing-scheduler.ts';
import { billingJobConcurrency } from './services/billing/run-billing-jobs.ts';
import { createEmailTransport } from './adapters/email-transport.ts';
import { OutboxWorker } from './services/notifications/outbox-worker.ts';
import { WebhookWorker } from './services/webhooks/delivery-worker.ts';
import { createPaymentGateway } from './adapters/create-gateway.ts';
import { StripeGateway } from './adapters/stripe/stripe-gateway.ts';
import type { PaymentGateway } from './adapters/payment-gateway.ts';
import { PaymentSimulator } from './adapters/simulator/simulator.ts';
import { isSeeded, seedDemoWorld } from './seed/demo-world.ts';
import type { DemoWorldAtStart } from './startup-summary.ts';

export interface StartOptions {
  config: Config;
  clock?: Clock;
  /** Run inside this database schema (tests isolate servers that share one PostgreSQL database). */
  schema?: string;
  /** Keep the embedded database in memory instead of under DATA_DIR. */
  inMemory?: boolean;
  /**
   * Wraps the payment port the server uses (tests inject a flaky network or a slow provider at the
   * port's boundary this way; the port behind it stays the real adapter).
   */
  wrapGateway?: (gateway: PaymentGateway) => PaymentGateway;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: LogStream;
}

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  gateway: PaymentGateway;
  scheduler: BillingScheduler;
  outbox: OutboxWorker;
  webhooks: WebhookWorker;
  url: string;
  /** What this start did with the demo world. */
  demoWorld: DemoWorldAtStart;
  close(): Promise<void>;
}

async function demoWorldAtStart(
  seedDemo: Config['SEED_DEMO'],
  database: DatabaseHandle,
): Promise<DemoWorldAtStart> {
  if (seedDemo === 'never') return 'off';
  if (seedDemo === 'always') return 'reset';
  return (await isSeeded(database.db)) ? 'kept' : 'seeded';
}

/** Opens the store, migrates it, seeds the demo world as SEED_DEMO says and builds the app. */
export async function prepare(options: StartOptions): Promise<{
  app: FastifyInstance;
  database: DatabaseHandle;
  gateway: PaymentGateway;
  demoWorld: DemoWorldAtStart;
}> {
  const { config } = options;
  const clock = options.clock ?? systemClock;
  const schema = options.schema ?? config.DATABASE_SCHEMA;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: options.inMemory ? undefined : config.DATA_DIR,
    schema,
  });
  try {
    await migrateToLatest(database.db, schema);
    const demoWorld = await demoWorldAtStart(config.SEED_DEMO, database);
    // always: a demo server that starts every run from the same demo world (users keep their sessions).
    if (demoWorld === 'seeded' || demoWorld === 'reset') {
      await seedDemoWorld(database.db, clock);
    }
    const built = createPaymentGateway(database.db, clock, config);
    const gateway = options.wrapGateway ? options.wrapGateway(built) : built;
    const app = await buildApp({
      config,
      db: database.db,
      onAccessChange: database.onAccessChange,
      clock,
      gateway,
      simulator: built instanceof PaymentSimulator ? built : null,
      logStream: options.logStream,
    });
    if (built instanceof StripeGateway) built.log = app.log;
    return { app, database, gateway, demoWorld };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { app, database, gateway, demoWorld } = await prepare(options);
  const scheduler = new BillingScheduler(
    database.db,
    gateway,
    options.clock ?? systemClock,
    app.log,
    options.config.BILLING_JOB_INTERVAL_SECONDS,
    options.config.BILLING_CLOSE_GRACE_MINUTES,
    billingJobConcurrency(database.kind),
    app.billingJobHeartbeat,
  );
  const outbox = new OutboxWorker(
    database.db,
    createEmailTransport(options.config),
    { from: options.config.EMAIL_FROM, baseUrl: options.config.PUBLIC_URL },
    app.log,
    options.config.EMAIL_OUTBOX_INTERVAL_SECONDS,
  );
  const webhooks = new WebhookWorker(
    database.db,
    { production: options.config.NODE_ENV === 'production', clock: options.clock ?? systemClock },
    app.log,
    options.config.WEBHOOK_INTERVAL_SECONDS,
  );
  app.webhookSignal.listen(() => webhooks.kick());
  const address = await app.listen({ port: options.config.PORT, host: options.config.HOST });
  scheduler.start();
  outbox.start();
  webhooks.start();
  const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  return {
    app,
    database,
    gateway,
    scheduler,
    outbox,
    webhooks,
    url,
    demoWorld,
    /**
     * Stops accepting connections and finishes the requests in flight, while the workers stop at a safe
     * point (the billing job and the outbox finish the run they are in, the webhook worker its deliveries);
     * then the store closes.
     */
    async close() {
      await Promise.all([app.close(), scheduler.stop(), webhooks.stop(), outbox.stop()]);
      await database.close();
    },
  };
}
