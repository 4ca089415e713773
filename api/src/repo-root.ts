import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root. Relative paths in the configuration are read from here, not from the working
 * directory: `npm start` runs the server inside `api/`, and `./.data` means the one the README names.
 */
export const REPO_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** The path as given when absolute, else from the repository's root. */
export function fromRepoRoot(path: string): string {
  return resolve(REPO_ROOT, path);
}
