import {
  MAX_ACCESS_TOKENS,
  type AccessToken,
  type accessTokenCreateSchema,
} from '@meterline/domain';
import type { z } from 'zod';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import {
  countUsableAccessTokensLocked,
  insertAccessToken,
  newAccessToken,
  newAccessTokenId,
} from '../../repositories/access-tokens.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import { accessTokenView } from './access-token-view.ts';

const DAY_MS = 86_400_000;

export interface CreateAccessTokenInput {
  organizationId: string;
  user: { id: string; email: string };
  request: z.output<typeof accessTokenCreateSchema>;
  audit: AuditContext;
  now: Date;
}

/**
 * A new organization access token. It is answered once, here (`secret`); the database keeps its hash.
 * At most MAX_ACCESS_TOKENS usable tokens per organization.
 */
export async function createAccessToken(
  db: Db,
  input: CreateAccessTokenInput,
): Promise<{ token: AccessToken; secret: string }> {
  const { organizationId, user, now } = input;
  const { name, expires_in_days: days, scope } = input.request;
  const { token, hash, prefix } = newAccessToken();
  const created = await db.transaction().execute(async (trx) => {
    if ((await countUsableAccessTokensLocked(trx, organizationId, now)) >= MAX_ACCESS_TOKENS) {
      throw new Failure(
        'invalid',
        `An organization has at most ${MAX_ACCESS_TOKENS} live access tokens: revoke one first`,
      );
    }
    const row = await insertAccessToken(trx, {
      id: newAccessTokenId(),
      organization_id: organizationId,
      name,
      scope,
      token_hash: hash,
      prefix,
      created_by: user.id,
      created_at: now,
      expires_at: days === null ? null : new Date(now.getTime() + days * DAY_MS),
    });
    const view = accessTokenView({ ...row, created_by_email: user.email });
    // Never the token, its hash or its prefix: its name, scope and expiry.
    await recordAudit(trx, input.audit, {
      organizationId,
      action: 'access_token.created',
      target: { type: 'access_token', id: row.id },
      after: { name, scope, expires_at: view.expires_at },
      at: now,
    });
    return view;
  });
  return { token: created, secret: token };
}
