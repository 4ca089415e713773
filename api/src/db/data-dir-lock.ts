import { linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Another process holds the embedded database. */
export class DataDirInUseError extends Error {}

const LOCK_FILE = 'meterline.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function holderOf(path: string): number | null {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Holds the embedded database's directory for this process until the returned release is called. PGlite
 * keeps no lock of its own, and two processes writing one directory corrupt it: a second server, or the
 * demo reset or the billing command beside a running server, must stop at once instead. The lock file
 * names its holder's pid, so one left behind by a process that is gone (a crash) is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const candidate = `${path}.${process.pid}`;
  // Written whole first, then linked into place: a link is created atomically or not at all, so no
  // process ever reads a lock file that is still empty.
  writeFileSync(candidate, String(process.pid));
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(candidate, path);
        return () => {
          if (holderOf(path) === process.pid) rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = holderOf(path);
      if (holder !== null && isRunning(holder)) {
        throw new DataDirInUseError(
          `The embedded database in ${dataDir} is in use by another process (pid ${holder}): stop the server first.`,
        );
      }
      rmSync(path, { force: true });
    }
    throw new DataDirInUseError(`Could not lock the embedded database in ${dataDir}: try again.`);
  } finally {
    rmSync(candidate, { force: true });
  }
}
