import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The set-up step of the browser tests (scripts/ensure-chromium.mjs), on machine states played through
 * its test-only default path: Chromium chosen, present, missing for a user who cannot install it, and
 * missing for root on Debian, with apt-get stood in for by a stub that records its calls.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/ensure-chromium.mjs');
const MISSING = '/nonexistent/chromium';
const isRoot = process.getuid?.() === 0;
const scratch = mkdtempSync(join(tmpdir(), 'ensure-chromium-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The script as `nobody` may read it: a copy in a folder of its own (it imports only Node's modules). The
 * checkout itself may sit where only its owner can read (a clone under /root, or under `mktemp -d`).
 */
function readableByNobody(): string {
  const folder = join(scratch, 'script');
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, 'ensure-chromium.mjs');
  copyFileSync(SCRIPT, copy);
  chmodSync(scratch, 0o755);
  chmodSync(folder, 0o755);
  chmodSync(copy, 0o644);
  return copy;
}

function run(env: Record<string, string>, options: { asNobody?: boolean } = {}) {
  const { CHROMIUM_PATH: _chosen, ...inherited } = process.env;
  const asNobody = options.asNobody && isRoot;
  const command = [process.execPath, asNobody ? readableByNobody() : SCRIPT];
  // Without root, as a developer's account is: root plays one with runuser.
  const argv = asNobody ? ['runuser', '-u', 'nobody', '--', ...command] : command;
  const [file = '', ...args] = argv;
  return spawnSync(file, args, { env: { ...inherited, ...env }, encoding: 'utf8' });
}

const lines = (result: SpawnSyncReturns<string>) =>
  `${result.stdout}${result.stderr}`.split('\n').filter(Boolean);

describe('ensure-chromium', () => {
  it('uses CHROMIUM_PATH when it is an executable, saying nothing', () => {
    const result = run({ CHROMIUM_PATH: process.execPath, ENSURE_CHROMIUM_DEFAULT_PATH: MISSING });
    expect(result.status).toBe(0);
    expect(lines(result)).toEqual([]);
  });

  it('stops in one line when CHROMIUM_PATH names nothing', () => {
    const result = run({ CHROMIUM_PATH: '/nonexistent', ENSURE_CHROMIUM_DEFAULT_PATH: MISSING });
    expect(result.status).toBe(1);
    expect(lines(result)).toEqual([
      'Chromium not found: CHROMIUM_PATH=/nonexistent is not an executable file; point it at ' +
        `Chromium, or unset it to use ${MISSING}.`,
    ]);
  });

  it('uses the default path when Chromium is there', () => {
    const result = run({ ENSURE_CHROMIUM_DEFAULT_PATH: process.execPath });
    expect(result.status).toBe(0);
    expect(lines(result)).toEqual([]);
  });

  it('stops in one line saying what to install when it cannot install it', () => {
    const result = run({ ENSURE_CHROMIUM_DEFAULT_PATH: MISSING }, { asNobody: true });
    expect(result.status).toBe(1);
    const install = existsSync('/etc/debian_version')
      ? 'sudo apt-get install chromium fonts-dejavu-core'
      : 'Chromium';
    expect(lines(result)).toEqual([
      `Chromium not found at ${MISSING}: install it (${install}) or set CHROMIUM_PATH to a ` +
        'Chromium executable, then run the tests again.',
    ]);
  });

  const rootOnDebian = isRoot && existsSync('/etc/debian_version');
  it.runIf(rootOnDebian)('installs it with apt-get as root on Debian', () => {
    const bin = join(scratch, 'bin');
    const installed = join(scratch, 'chromium');
    const calls = join(scratch, 'calls');
    mkdirSync(bin, { recursive: true });
    writeFileSync(
      join(bin, 'apt-get'),
      `#!/bin/sh\necho "$*" >> ${calls}\n` +
        `if [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${installed}; chmod +x ${installed}; fi\n`,
    );
    chmodSync(join(bin, 'apt-get'), 0o755);
    const result = run({
      ENSURE_CHROMIUM_DEFAULT_PATH: installed,
      PATH: `${bin}:${process.env.PATH ?? ''}`,
    });
    expect(result.status).toBe(0);
    expect(readFileSync(calls, 'utf8').split('\n').filter(Boolean)).toEqual([
      'update -qq',
      'install -y -qq chromium fonts-dejavu-core',
    ]);
    expect(lines(result).at(-1)).toBe(`Chromium installed at ${installed}`);
  });

  it('stops the browser tests before building anything', () => {
    const { CHROMIUM_PATH: _chosen, ...inherited } = process.env;
    const result = spawnSync('npm', ['run', 'test:e2e'], {
      cwd: ROOT,
      env: { ...inherited, CHROMIUM_PATH: '/nonexistent' },
      encoding: 'utf8',
    });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('CHROMIUM_PATH=/nonexistent is not an executable file');
    // npm echoes each script it starts: `> build` would be the web app's build.
    expect(`${result.stdout}${result.stderr}`).not.toMatch(/^> (build|vite)/m);
  });
});
