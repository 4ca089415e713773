import {
  CREDITED_TO_BALANCE_LABEL,
  formatCents,
  lineQuantities,
  type InvoiceDetail,
} from '@meterline/domain';

/** The quantity a finalized line states, if it kept one (lines finalized before show their price). */
function lineDetail(line: InvoiceDetail['lines'][number]): string {
  if (line.quantity === null) return line.unit_price_desc;
  return lineQuantities({ ...line, quantity: line.quantity })?.summary ?? line.unit_price_desc;
}

/**
 * What the invoice bills, line by line, as the PDF states it: each usage line's usage, quota and
 * billable quantity at its unit price, then the subtotal, the credit applied and the total, and what a
 * change invoice below zero added to the credit balance.
 */
export function InvoiceLines({ invoice }: { invoice: InvoiceDetail }) {
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Invoice lines</caption>
      <thead className="text-xs text-muted-foreground">
        <tr>
          <th scope="col" className="pb-2 text-left font-medium">
            Item
          </th>
          <th scope="col" className="pb-2 pl-3 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {invoice.lines.map((line, index) => (
          <tr key={index} className="border-t">
            <td className="py-2 pr-3 align-top">
              {line.description}
              <span className="mt-0.5 block text-xs text-muted-foreground">{lineDetail(line)}</span>
            </td>
            <td className="py-2 pl-3 text-right align-top whitespace-nowrap tabular-nums">
              {formatCents(line.amount)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot className="border-t-2 border-foreground/15">
        <tr>
          <th scope="row" className="pt-2 text-left font-normal text-muted-foreground">
            Subtotal
          </th>
          <td className="pt-2 text-right tabular-nums">{formatCents(invoice.subtotal)}</td>
        </tr>
        {invoice.credit_applied > 0 ? (
          <tr>
            <th scope="row" className="text-left font-normal text-muted-foreground">
              Credit applied
            </th>
            <td className="text-right tabular-nums">{formatCents(-invoice.credit_applied)}</td>
          </tr>
        ) : null}
        <tr>
          <th scope="row" className="text-left font-medium">
            Total
          </th>
          <td className="text-right font-medium tabular-nums">{formatCents(invoice.amount_due)}</td>
        </tr>
        {invoice.credited_to_balance > 0 ? (
          // A change invoice below zero is $0.00 due: the difference is kept as credit.
          <tr>
            <th scope="row" className="text-left font-normal text-muted-foreground">
              {CREDITED_TO_BALANCE_LABEL}
            </th>
            <td className="text-right tabular-nums">{formatCents(invoice.credited_to_balance)}</td>
          </tr>
        ) : null}
      </tfoot>
    </table>
  );
}
