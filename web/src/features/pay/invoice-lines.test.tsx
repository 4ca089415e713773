import { render, screen, within } from '@testing-library/react';
import { CREDITED_TO_BALANCE_LABEL, invoiceDetailSchema } from '@meterline/domain';
import { describe, expect, it } from 'vitest';
import { recordedBilling } from '../../../test/billing-fixtures';
import { InvoiceLines } from './invoice-lines';

const recordedInvoice = recordedBilling.invoice.acmeProOpen;

/** A plan change's invoice below zero: Team → Pro with 12 days of Team left. */
const changeInvoice = invoiceDetailSchema.parse({
  ...recordedInvoice,
  status: 'paid',
  lines: [
    { ...recordedInvoice.lines[0], description: 'Unused time on Team plan', amount: -23_960 },
    { ...recordedInvoice.lines[0], description: 'Pro plan', amount: 2500 },
  ],
  subtotal: -21_460,
  total: -21_460,
  credit_applied: 0,
  amount_due: 0,
  amount_paid: 0,
  credited_to_balance: 21_460,
});

function row(name: string): HTMLElement {
  const header = screen.getByRole('rowheader', { name });
  const found = header.closest('tr');
  if (!found) throw new Error(`no row ${name}`);
  return found;
}

describe('InvoiceLines', () => {
  it('says where a change invoice below zero went: $0.00 due, the rest added to the credit balance', () => {
    render(<InvoiceLines invoice={changeInvoice} />);
    expect(within(row('Subtotal')).getByText('-$214.60')).toBeInTheDocument();
    expect(within(row('Total')).getByText('$0.00')).toBeInTheDocument();
    expect(within(row(CREDITED_TO_BALANCE_LABEL)).getByText('$214.60')).toBeInTheDocument();
  });

  it('has no such line when nothing went to the balance', () => {
    render(<InvoiceLines invoice={recordedInvoice} />);
    expect(screen.queryByText(CREDITED_TO_BALANCE_LABEL)).not.toBeInTheDocument();
  });
});
