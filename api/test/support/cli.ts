import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr as they came, interleaved. */
  output: string;
}

/**
 * Runs one of the operator's commands (`api/src/cli/<name>.ts`) as a real process, as `npm run billing`
 * does, with this process's environment and `env` over it (a value `undefined` unsets it), logs silent.
 */
export function runCli(
  name: 'billing' | 'seed-demo',
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> {
  const script = fileURLToPath(new URL(`../../src/cli/${name}.ts`, import.meta.url));
  const environment = Object.fromEntries(
    Object.entries({ ...process.env, LOG_LEVEL: 'silent', ...env }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      env: environment,
    });
    const run: CliRun = { code: null, stdout: '', stderr: '', output: '' };
    child.stdout.on('data', (chunk: Buffer) => {
      run.stdout += chunk.toString();
      run.output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      run.stderr += chunk.toString();
      run.output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ...run, code }));
  });
}

/** Like runCli, and throws with the output unless the command exits 0; answers its output. */
export async function runCliOk(
  name: 'billing' | 'seed-demo',
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<string> {
  const run = await runCli(name, args, env);
  if (run.code !== 0) throw new Error(run.output);
  return run.output;
}

/** The environment that points the CLI at a test server's own database. */
export function databaseOf(server: {
  databaseUrl: string | undefined;
  schema: string | undefined;
}): Record<string, string | undefined> {
  return { DATABASE_URL: server.databaseUrl, DATABASE_SCHEMA: server.schema };
}
