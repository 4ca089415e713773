import { backupCardRefusal, type BackupPaymentMethod } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import { Failure } from '../../lib/failure.ts';
import {
  findPaymentMethod,
  lockPaymentMethods,
  markBackupPaymentMethod,
} from '../../repositories/payment-methods.ts';
import { cardOf, recordAudit, type AuditContext } from '../../repositories/record-audit.ts';
import { PAYMENT_METHOD_NOT_FOUND } from './payment-methods.ts';

function currentBackup(trx: Db, organizationId: string) {
  return trx
    .selectFrom('payment_methods')
    .select(['id', 'brand', 'last4'])
    .where('organization_id', '=', organizationId)
    .where('is_backup', '=', true)
    .executeTakeFirst();
}

/**
 * PUT /payments/backup: marks one of the organization's cards as its backup, in place of any earlier one.
 * Another organization's card is not found; the default card is refused (409). Marking the backup again
 * answers the same. Under the organization's card lock, as making a card the default or removing one.
 */
export function setBackupPaymentMethod(
  db: Db,
  input: { organizationId: string; paymentMethodId: string; audit: AuditContext; at: Date },
): Promise<BackupPaymentMethod> {
  return db.transaction().execute(async (trx) => {
    await lockPaymentMethods(trx, input.organizationId);
    const method = await findPaymentMethod(trx, input.organizationId, input.paymentMethodId);
    if (!method) throw new Failure('not_found', PAYMENT_METHOD_NOT_FOUND);
    const refusal = backupCardRefusal(method);
    if (refusal) throw new Failure('conflict', refusal);
    const before = await currentBackup(trx, input.organizationId);
    await markBackupPaymentMethod(trx, input.organizationId, method.id);
    if (before?.id !== method.id) {
      await recordAudit(trx, input.audit, {
        organizationId: input.organizationId,
        action: 'payment_method.backup_set',
        target: { type: 'payment_method', id: method.id },
        before: { backup_card: cardOf(before) },
        after: { backup_card: cardOf(method) },
        at: input.at,
      });
    }
    return { backupPaymentMethodId: method.id };
  });
}

/** DELETE /payments/backup: the organization keeps its cards and has no backup; none already is fine. */
export function removeBackupPaymentMethod(
  db: Db,
  input: { organizationId: string; audit: AuditContext; at: Date },
): Promise<BackupPaymentMethod> {
  return db.transaction().execute(async (trx) => {
    await lockPaymentMethods(trx, input.organizationId);
    const before = await currentBackup(trx, input.organizationId);
    await markBackupPaymentMethod(trx, input.organizationId, null);
    if (before) {
      await recordAudit(trx, input.audit, {
        organizationId: input.organizationId,
        action: 'payment_method.backup_cleared',
        target: { type: 'payment_method', id: before.id },
        before: { backup_card: cardOf(before) },
        after: { backup_card: null },
        at: input.at,
      });
    }
    return { backupPaymentMethodId: null };
  });
}
