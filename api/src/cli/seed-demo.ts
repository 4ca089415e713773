import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { migrateToLatest, openDatabase } from '../db/database.ts';
import { seedDemoWorld } from '../seed/demo-world.ts';

try {
  const config = loadConfig();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    schema: config.DATABASE_SCHEMA,
  });
  await migrateToLatest(database.db, config.DATABASE_SCHEMA);
  await seedDemoWorld(database.db, systemClock);
  await database.close();
  console.log('The demo organizations were reset.');
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  // Resetting the embedded database under a running server would corrupt it: one line says what to do.
  if (error instanceof DataDirInUseError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}
