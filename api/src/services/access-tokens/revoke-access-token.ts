import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import { revokeAccessToken as revokeRow } from '../../repositories/access-tokens.ts';
import { recordAudit, type AuditContext } from '../../repositories/record-audit.ts';

export const ACCESS_TOKEN_NOT_FOUND = 'Access token not found';

/** Revokes a token at once: the access guard reads its row on every request made with it. */
export async function revokeAccessToken(
  db: Db,
  input: { organizationId: string; id: string; audit: AuditContext; now: Date },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const revoked = await revokeRow(trx, input.organizationId, input.id, input.now);
    if (!revoked) throw new Failure('not_found', ACCESS_TOKEN_NOT_FOUND);
    await recordAudit(trx, input.audit, {
      organizationId: input.organizationId,
      action: 'access_token.revoked',
      target: { type: 'access_token', id: revoked.id },
      before: { name: revoked.name, scope: revoked.scope },
      at: input.now,
    });
  });
}
