import { execFile, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/**
 * A PostgreSQL cluster of the test's own (initdb in a temporary directory, with the machine's PostgreSQL
 * binaries), which the test may stop and start under load. Where no binaries exist, or the tests run as
 * root with no `postgres` account to run the server as, `ownPostgresUnavailable()` says why.
 */

/** The newest PostgreSQL's bin directory: pg_config's, else Debian's /usr/lib/postgresql/<v>/bin. */
function binDir(): string | null {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  const candidates = [
    ...(fromConfig.status === 0 ? [fromConfig.stdout.trim()] : []),
    ...(existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : []),
  ];
  return (
    candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ??
    null
  );
}

const isRoot = process.getuid?.() === 0;

/** The uid and gid of the `postgres` account, when there is one. */
function postgresAccount(): { uid: number; gid: number } | null {
  const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  if (uid.status !== 0 || gid.status !== 0) return null;
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** Why this machine cannot start a cluster of its own; null when it can. */
export function ownPostgresUnavailable(): string | null {
  if (!binDir()) return 'no PostgreSQL binaries (initdb, pg_ctl) on this machine';
  if (isRoot && !postgresAccount()) {
    return 'running as root, and there is no postgres account to run PostgreSQL as';
  }
  return null;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export interface OwnPostgres {
  url: string;
  /** Stops the server (fast: connections are cut), waits `downMs`, starts it again. */
  restart(downMs: number): Promise<void>;
  /** Stops the server (fast), keeping its data: `up()` starts it again. */
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const bin = binDir();
  if (!bin) throw new Error('no PostgreSQL binaries');
  const dir = mkdtempSync(join(tmpdir(), 'meterline-pg-'));
  const data = join(dir, 'data');
  const account = isRoot ? postgresAccount() : null;
  if (account) chownSync(dir, account.uid, account.gid);
  // Asynchronous: the server under test runs in this process and keeps serving meanwhile.
  const run = async (tool: string, args: string[]) => {
    const command = join(bin, tool);
    if (account) await exec('runuser', ['-u', 'postgres', '--', command, ...args]);
    else await exec(command, args);
  };
  const port = await freePort();
  await run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async restart(downMs) {
      await stop();
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    down: stop,
    up: start,
    async stop() {
      try {
        await stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
