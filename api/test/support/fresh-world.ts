import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Clock } from '../../src/clock.ts';
import { configFrom } from '../../src/config.ts';
import { startServer, type RunningServer, type StartOptions } from '../../src/server.ts';
import type { TestDatabase } from './server.ts';

/**
 * The demo world seeded once, then handed out as a fresh copy to every case: seeding lives through the
 * world's history (seconds), a copy takes a fraction of that. On the embedded database the copy is the
 * data directory; on PostgreSQL a database created from the seeded one as its template.
 */
export interface FreshWorlds {
  /** A real server on a copy of the seeded store, as `startTestServer` starts one. */
  start(options: {
    clock: Clock;
    wrapGateway?: StartOptions['wrapGateway'];
  }): Promise<RunningServer>;
  close(): Promise<void>;
}

const baseEnv = {
  PORT: '0',
  HOST: '127.0.0.1',
  LOG_LEVEL: 'silent',
  WEB_DIST: '/nonexistent',
  // The cases drive the billing job themselves, with their own clock.
  BILLING_JOB_INTERVAL_SECONDS: '0',
};

export async function seedOnce(database: TestDatabase, clock: Clock): Promise<FreshWorlds> {
  return database === 'postgres' ? postgresWorlds(clock) : embeddedWorlds(clock);
}

async function embeddedWorlds(clock: Clock): Promise<FreshWorlds> {
  // In memory where the machine offers it: every case copies and opens a whole store.
  const root = mkdtempSync(
    join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'meterline-faults-'),
  );
  const seeded = join(root, 'seeded');
  const first = await startServer({ config: configFrom({ ...baseEnv, DATA_DIR: seeded }), clock });
  await first.close();
  let copies = 0;
  const running = new Set<RunningServer>();
  return {
    async start(options) {
      const dir = join(root, `case-${++copies}`);
      cpSync(seeded, dir, { recursive: true });
      const server = await startServer({
        config: configFrom({ ...baseEnv, DATA_DIR: dir }),
        ...options,
      });
      running.add(server);
      return {
        ...server,
        async close() {
          running.delete(server);
          await server.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
    async close() {
      for (const server of running) await server.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function postgresWorlds(clock: Clock): Promise<FreshWorlds> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  const prefix = `faults_${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_seeded`;
  const urlOf = (name: string) => {
    const parsed = new URL(url);
    parsed.pathname = `/${name}`;
    return parsed.toString();
  };
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const created: string[] = [];
  const create = async (name: string, from?: string) => {
    await admin.query(`CREATE DATABASE ${name}${from ? ` TEMPLATE ${from}` : ''}`);
    created.push(name);
  };
  await create(template);
  const first = await startServer({
    config: configFrom({ ...baseEnv, DATABASE_URL: urlOf(template) }),
    clock,
  });
  await first.close();
  let copies = 0;
  return {
    async start(options) {
      const name = `${prefix}_${++copies}`;
      await create(name, template);
      const server = await startServer({
        config: configFrom({ ...baseEnv, DATABASE_URL: urlOf(name) }),
        ...options,
      });
      return {
        ...server,
        async close() {
          await server.close();
          await admin.query(`DROP DATABASE IF EXISTS ${name}`);
        },
      };
    },
    async close() {
      for (const name of created.reverse()) {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
      await admin.end();
    },
  };
}
