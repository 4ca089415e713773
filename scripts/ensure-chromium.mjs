// Before the browser tests (npm run test:e2e): find the Chromium they drive, install it where this
// machine allows, or stop at once with one line saying what to install, before anything is built.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';

// ENSURE_CHROMIUM_DEFAULT_PATH exists only so a test can play a machine without Chromium.
const DEFAULT_PATH = process.env.ENSURE_CHROMIUM_DEFAULT_PATH || '/usr/bin/chromium';
const PACKAGES = ['chromium', 'fonts-dejavu-core'];

function isExecutable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function stop(line) {
  console.error(line);
  process.exit(1);
}

const chosen = process.env.CHROMIUM_PATH;
if (chosen) {
  if (isExecutable(chosen)) process.exit(0);
  stop(
    `Chromium not found: CHROMIUM_PATH=${chosen} is not an executable file; point it at Chromium, ` +
      `or unset it to use ${DEFAULT_PATH}.`,
  );
}
if (isExecutable(DEFAULT_PATH)) process.exit(0);

// Debian and Ubuntu carry /etc/debian_version; only root may install packages.
const debian = existsSync('/etc/debian_version');
const root = process.getuid?.() === 0;
if (!debian || !root) {
  const install = debian ? `sudo apt-get install ${PACKAGES.join(' ')}` : 'Chromium';
  stop(
    `Chromium not found at ${DEFAULT_PATH}: install it (${install}) or set CHROMIUM_PATH to a ` +
      'Chromium executable, then run the tests again.',
  );
}

console.log(`Chromium not found at ${DEFAULT_PATH}: installing ${PACKAGES.join(' ')} with apt-get`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [
  ['update', '-qq'],
  ['install', '-y', '-qq', ...PACKAGES],
]) {
  const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (result.status !== 0) {
    stop(
      `Chromium could not be installed (apt-get ${args[0]} failed): install ${PACKAGES.join(' ')} ` +
        'or set CHROMIUM_PATH to a Chromium executable, then run the tests again.',
    );
  }
}
if (!isExecutable(DEFAULT_PATH)) {
  stop(
    `apt-get installed ${PACKAGES.join(' ')} but ${DEFAULT_PATH} is still missing: set ` +
      'CHROMIUM_PATH to the Chromium executable, then run the tests again.',
  );
}
console.log(`Chromium installed at ${DEFAULT_PATH}`);
