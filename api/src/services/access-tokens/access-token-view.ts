import type { AccessToken } from '@meterline/domain';
import type { AccessTokenRow } from '../../repositories/access-tokens.ts';

const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/** A token as the API answers it: never its hash. */
export function accessTokenView(row: AccessTokenRow): AccessToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    created_by: row.created_by_email,
    created_at: unix(row.created_at),
    last_used_at: row.last_used_at ? unix(row.last_used_at) : null,
    expires_at: row.expires_at ? unix(row.expires_at) : null,
  };
}
