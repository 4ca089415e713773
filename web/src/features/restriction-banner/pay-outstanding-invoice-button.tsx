import { hasPermission, outstandingInvoiceToPay } from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { Link } from '../../lib/router';
import { Button } from '../../components/ui/button';
import { useInvoicesQuery } from '../../data/invoices-query';
import { usePayNow } from '../../payments/use-pay-now';
import { useOrganizationRole } from '../../session/profile-context';

/**
 * "Pay outstanding invoice": the invoices' Pay Now for the oldest invoice left to pay (the first page
 * of invoices, shared with the invoices section, holds it: an invoice is overdue 14 days after it was
 * issued). Until that invoice is known, or for a member who may not pay, it leads to the invoices.
 */
export function PayOutstandingInvoiceButton({ slug, label }: { slug: string; label: string }) {
  const role = useOrganizationRole(slug);
  const invoices = useInvoicesQuery(slug, {
    offset: 0,
    enabled: hasPermission(role, 'billing_read:subscriptions'),
  });
  const { pay, paying } = usePayNow(slug);
  const invoice = outstandingInvoiceToPay(invoices.data ?? []);

  if (!invoice || !hasPermission(role, 'billing_write:subscriptions')) {
    return (
      <Button size="sm" variant="primary" asChild>
        <Link to={`/org/${encodeURIComponent(slug)}/billing#invoices`}>{label}</Link>
      </Button>
    );
  }
  const busy = paying === invoice.id;
  return (
    <Button
      size="sm"
      variant="primary"
      aria-disabled={busy || undefined}
      onClick={() => {
        if (!busy) pay(invoice);
      }}
    >
      {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
      {label}
    </Button>
  );
}
