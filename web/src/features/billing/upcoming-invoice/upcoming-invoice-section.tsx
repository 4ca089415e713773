import { BillingSection, type BillingSectionProps } from '../billing-section';

/** Anchored as #breakdown, the spec's name for it. */
export function UpcomingInvoiceSection({ role }: BillingSectionProps) {
  return <BillingSection section="breakdown" role={role} />;
}
