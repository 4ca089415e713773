import type { Db } from '../../db/database.ts';
import {
  countInvoices,
  keepInvoicePrefix,
  nextInvoicePrefixAllocation,
  storedInvoicePrefix,
} from '../../repositories/invoices.ts';
import { invoiceNumber, invoicePrefix } from '../../lib/ids.ts';

/**
 * The number and per-organization sequence of the organization's next invoice. The caller holds the
 * organization's subscription lock, so the count cannot move under it. Numbers are unique by
 * construction: a prefix is drawn once per organization from a global sequence (and kept unique by
 * a constraint), and the count is the organization's own.
 */
export async function nextInvoiceNumber(
  db: Db,
  organizationId: string,
): Promise<{ number: string; sequence: number }> {
  const sequence = (await countInvoices(db, organizationId)) + 1;
  const prefix =
    (await storedInvoicePrefix(db, organizationId)) ??
    (await keepInvoicePrefix(
      db,
      organizationId,
      invoicePrefix(await nextInvoicePrefixAllocation(db)),
    ));
  return { number: invoiceNumber(prefix, sequence), sequence };
}
