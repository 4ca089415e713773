import { describe, expect, it } from 'vitest';
import { invoiceSeenBy } from './invoice-visibility.ts';
import { hasPermission } from './permissions.ts';
import { ROLES } from './roles.ts';

const invoice = {
  id: 'in_1',
  amount_due: 2500,
  billing_name: 'Acme Pro Inc.',
  billing_email: 'billing@acme.example',
  billing_address: { line1: '1 Main Street', city: 'Springfield', country: 'US' },
  tax_id: { type: 'eu_vat', value: 'NL123456789B01', country: 'NL' },
  paid_with: { brand: 'visa', last4: '4242' },
};

describe('invoiceSeenBy', () => {
  it.each(ROLES)('shows %s exactly what the role matrix lets it read', (role) => {
    const seen = invoiceSeenBy(invoice, (permission) => hasPermission(role, permission));
    const customer = hasPermission(role, 'billing_read:customer');
    expect(seen).toEqual({
      id: 'in_1',
      amount_due: 2500,
      billing_name: customer ? invoice.billing_name : null,
      billing_email: customer ? invoice.billing_email : null,
      billing_address: customer ? invoice.billing_address : null,
      tax_id: hasPermission(role, 'billing_read:tax_ids') ? invoice.tax_id : null,
      paid_with: hasPermission(role, 'billing_read:payment_methods') ? invoice.paid_with : null,
    });
  });

  it('hides the billing details, tax ID and card from a read-only member, and keeps the rest', () => {
    const seen = invoiceSeenBy(invoice, (permission) => hasPermission('read_only', permission));
    expect(seen).toEqual({
      id: 'in_1',
      amount_due: 2500,
      billing_name: null,
      billing_email: null,
      billing_address: null,
      tax_id: null,
      paid_with: null,
    });
    expect(invoiceSeenBy(invoice, (permission) => hasPermission('owner', permission))).toEqual(
      invoice,
    );
  });
});
