import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.ts';

/** Versioned migrations, applied in key order at start; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
};
