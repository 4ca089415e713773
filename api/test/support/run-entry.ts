import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The server's entry, run as `npm run serve` runs it: a real process, the real environment parsing.
const API_DIR = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A server that neither refuses nor shows its line by then is stopped, so the test fails instead of hanging. */
const GIVE_UP_MS = 45_000;

/**
 * Starts the entry with only this environment (nothing inherited but PATH) and answers how it ended.
 * `once` runs when stdout shows the line, then the server is stopped the way an operator stops it.
 */
export function runServer(
  env: Record<string, string>,
  once?: { line: RegExp; then: (match: RegExpMatchArray) => Promise<void> },
): Promise<Run & { thenError?: unknown }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    let thenError: unknown;
    let seen = false;
    const giveUp = setTimeout(() => child.kill('SIGKILL'), GIVE_UP_MS);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = once && !seen ? stdout.match(once.line) : null;
      if (match && once) {
        seen = true;
        once
          .then(match)
          .catch((error: unknown) => (thenError = error))
          .finally(() => child.kill('SIGTERM'));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, stdout, stderr, thenError });
    });
  });
}
