import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/repo-root.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The served document, through two third-party linters as a reader's tooling would run them: Redocly's
// recommended rules and Spectral's `spectral:oas`. Both are installed packages that need no network.

const run = promisify(execFile);
const bin = (name: string) => join(REPO_ROOT, 'node_modules', '.bin', name);
const OFFLINE = {
  ...process.env,
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_COLOR: '1',
};

/** A linter's answer: it exits non-zero on errors, with its report on standard output all the same. */
async function lint(command: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(bin(command), args, {
      env: OFFLINE,
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
    });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (!stdout) throw new Error(`${command} failed: ${stderr ?? String(error)}`);
    return stdout;
  }
}

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string }[];
}

interface SpectralProblem {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

describe('the OpenAPI document under third-party linters', () => {
  let server: TestServer;
  let directory: string;
  let file: string;

  beforeAll(async () => {
    server = await startTestServer();
    directory = await mkdtemp(join(tmpdir(), 'meterline-openapi-'));
    file = join(directory, 'openapi.json');
    const response = await fetch(`${server.url}/platform/openapi.json`);
    await writeFile(file, await response.text());
  });
  afterAll(async () => {
    await server?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it("has no error under Redocly's recommended rules", async () => {
    const report = JSON.parse(
      await lint('redocly', ['lint', file, '--format=json', '--max-problems=1000']),
    ) as RedoclyReport;
    const errors = report.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId}: ${problem.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("has no error under Spectral's spectral:oas", async () => {
    const ruleset = join(directory, '.spectral.yaml');
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n');
    const problems = JSON.parse(
      await lint('spectral', ['lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet']),
    ) as SpectralProblem[];
    const errors = problems
      .filter((problem) => problem.severity === 0)
      .map((problem) => `${problem.code} at ${problem.path.join('.')}: ${problem.message}`);
    expect(errors).toEqual([]);
  });
});
