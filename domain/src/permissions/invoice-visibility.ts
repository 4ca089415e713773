import type { Permission } from './permissions.ts';

/** The parts of an invoice document that the role matrix guards apart from the invoice itself. */
export interface InvoiceParty {
  billing_name: string | null;
  billing_email: string | null;
  billing_address: unknown;
  tax_id: unknown;
  paid_with: unknown;
}

/**
 * An invoice as a caller sees it. Reading invoices does not by itself let a member read what the role
 * matrix keeps from them elsewhere: the billing name, email and address need the customer's read, the tax
 * ID the tax IDs' read, the paying card the payment methods' read. A read-only member gets the amounts,
 * lines and dates, with those parts empty, in the API and in the PDF alike.
 */
export function invoiceSeenBy<T extends InvoiceParty>(
  invoice: T,
  may: (permission: Permission) => boolean,
): T {
  const customer = may('billing_read:customer');
  return {
    ...invoice,
    billing_name: customer ? invoice.billing_name : null,
    billing_email: customer ? invoice.billing_email : null,
    billing_address: customer ? invoice.billing_address : null,
    tax_id: may('billing_read:tax_ids') ? invoice.tax_id : null,
    paid_with: may('billing_read:payment_methods') ? invoice.paid_with : null,
  };
}
