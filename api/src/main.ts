import { ConfigError, loadConfig } from './config.ts';
import { DataDirInUseError } from './db/data-dir-lock.ts';
import { startServer } from './server.ts';

try {
  const config = loadConfig();
  const server = await startServer({ config });
  server.app.log.info(
    `Meterline is running on ${server.url} (${server.database.kind === 'pglite' ? `embedded database in ${config.DATA_DIR}` : 'PostgreSQL server'})`,
  );
  const stop = async () => {
    await server.close();
    process.exit(0);
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
