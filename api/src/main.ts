import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { DEMO_PASSWORD } from './seed/demo-world-data.ts';
import { startServer, type RunningServer } from './server.ts';
import {
  DEMO_SIGN_INS,
  runningLine,
  startupBlock,
  storeDescription,
  type StartupFacts,
} from './startup-summary.ts';

/**
 * A person at `npm start` reads one block; production's log collector reads JSON lines saying the same,
 * the demo users' password only when the demo world was chosen (production names SEED_DEMO).
 */
function announce(server: RunningServer, config: Config): void {
  const facts: StartupFacts = {
    url: server.url,
    store:
      server.database.kind === 'pglite'
        ? { kind: 'pglite', dataDir: config.DATA_DIR }
        : { kind: 'postgres', schema: config.DATABASE_SCHEMA },
    demoWorld: server.demoWorld,
    mail: config.EMAIL_PROVIDER,
  };
  const log = server.app.log;
  if (config.NODE_ENV !== 'production') {
    // LOG_LEVEL=warn or quieter asks for no chatter (the benchmark runs the server so).
    if (['info', 'debug', 'trace'].includes(config.LOG_LEVEL)) {
      process.stdout.write(startupBlock(facts));
    }
    return;
  }
  log.info(
    { url: facts.url, demoWorld: facts.demoWorld },
    `${runningLine(facts)} (${storeDescription(facts.store)})`,
  );
  if (facts.demoWorld !== 'off') {
    log.info(
      { users: DEMO_SIGN_INS.map(([email]) => email) },
      `Demo world ${facts.demoWorld}: sign in as ${DEMO_SIGN_INS.map(([email]) => email).join(', ')} ` +
        `with the password ${DEMO_PASSWORD}`,
    );
  }
}

try {
  const config = loadConfig();
  const server = await startServer({ config });
  announce(server, config);
  // A signal stops accepting, finishes what is in flight, stops the workers at a safe point and exits;
  // a second one ends the process at once.
  const stop = (signal: NodeJS.Signals) => {
    server.app.log.info({ signal }, 'Stopping: finishing the requests and jobs in flight');
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        server.app.log.error({ err: error }, 'Stopping failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
