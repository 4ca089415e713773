import type { CustomerAddress, TaxId } from '@meterline/domain';
import type { Db } from '../../db/database.ts';
import {
  getCustomerProfile,
  getTaxId,
  saveCustomer,
  saveTaxId,
} from '../../repositories/customers.ts';
import {
  changedFields,
  recordAudit,
  storedAuditContext,
  type AuditContext,
} from '../../repositories/record-audit.ts';

/**
 * What a money request (a top-up, a plan change, a spend-cap toggle) asked to change on the billing
 * profile: saved only in the transaction that records its payment as succeeded (or, nothing due, the one
 * that applies it), so a declined or abandoned request writes nothing (product-decisions §15).
 */
export interface ProfileUpdate {
  billing_name?: string;
  address?: CustomerAddress;
  tax_id?: TaxId;
}

export async function applyProfileUpdate(
  trx: Db,
  organizationId: string,
  update: ProfileUpdate,
  audit: AuditContext,
  at: Date,
): Promise<void> {
  if (update.billing_name !== undefined || update.address !== undefined) {
    const current = await getCustomerProfile(trx, organizationId);
    const billingName = update.billing_name ?? current.billing_name;
    // The request checked that an address comes with a name; a name removed since leaves the profile be.
    if (billingName) {
      const before = { billing_name: current.billing_name, address: current.address };
      const after = { billing_name: billingName, address: update.address ?? current.address };
      await saveCustomer(trx, organizationId, after);
      const changed = changedFields(before, after);
      if (changed) {
        const target = { type: 'customer', id: organizationId } as const;
        await recordAudit(trx, audit, {
          ...{ organizationId, action: 'customer.updated', target, ...changed },
          at,
        });
      }
    }
  }
  if (update.tax_id) {
    const before = await getTaxId(trx, organizationId);
    await saveTaxId(trx, organizationId, update.tax_id);
    const after = await getTaxId(trx, organizationId);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      const target = { type: 'tax_id', id: organizationId } as const;
      await recordAudit(trx, audit, {
        ...{ organizationId, action: 'tax_id.set', target },
        ...{ before: { tax_id: before }, after: { tax_id: after }, at },
      });
    }
  }
}

/**
 * The update a money request stored with itself (`charges.profile_update` of a top-up,
 * `plan_changes.profile_update` of a plan change or a spend-cap toggle), saved in the name of whoever
 * made the request. Called in the transaction that records the payment as succeeded, before the
 * invoice it pays is issued, so that invoice carries the new details.
 */
export async function applyStoredProfileUpdate(
  trx: Db,
  request: { organization_id: string; profile_update: unknown; audit_context: unknown },
  at: Date,
): Promise<void> {
  if (!request.profile_update) return;
  const update = request.profile_update as ProfileUpdate;
  const audit = storedAuditContext(request.audit_context);
  await applyProfileUpdate(trx, request.organization_id, update, audit, at);
}
