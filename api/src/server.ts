import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db/database.ts';
import { buildApp } from './app.ts';
import type { LogStream } from './log-options.ts';
import { BillingScheduler } from './services/billing/billing-scheduler.ts';
import { createPaymentGateway } from './services/payments/create-gateway.ts';
import type { PaymentGateway } from './services/payments/payment-gateway.ts';
import { isSeeded, seedDemoWorld } from './seed/demo-world.ts';

export interface StartOptions {
  config: Config;
  clock?: Clock;
  /** Run inside this database schema (tests isolate servers that share one PostgreSQL database). */
  schema?: string;
  /** Keep the embedded database in memory instead of under DATA_DIR. */
  inMemory?: boolean;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: LogStream;
}

export interface RunningServer {
  app: FastifyInstance;
  database: DatabaseHandle;
  gateway: PaymentGateway;
  scheduler: BillingScheduler;
  url: string;
  close(): Promise<void>;
}

/** Opens the store, migrates it, seeds an empty one with the demo world and builds the app. */
export async function prepare(
  options: StartOptions,
): Promise<{ app: FastifyInstance; database: DatabaseHandle; gateway: PaymentGateway }> {
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
    if (config.SEED_DEMO === 'auto' && !(await isSeeded(database.db))) {
      await seedDemoWorld(database.db, clock);
    }
    const gateway = createPaymentGateway(database.db, clock, config);
    const app = await buildApp({
      config,
      db: database.db,
      onAccessChange: database.onAccessChange,
      clock,
      gateway,
      logStream: options.logStream,
    });
    return { app, database, gateway };
  } catch (error) {
    await database.close();
    throw error;
  }
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const { app, database, gateway } = await prepare(options);
  const scheduler = new BillingScheduler(
    database.db,
    gateway,
    options.clock ?? systemClock,
    app.log,
    options.config.BILLING_JOB_INTERVAL_SECONDS,
  );
  const address = await app.listen({ port: options.config.PORT, host: options.config.HOST });
  scheduler.start();
  const url = address.replace('0.0.0.0', 'localhost').replace('[::]', 'localhost');
  return {
    app,
    database,
    gateway,
    scheduler,
    url,
    async close() {
      await scheduler.stop();
      await app.close();
      await database.close();
    },
  };
}
