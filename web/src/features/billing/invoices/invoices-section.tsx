import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerInvoicesNotice } from '../partner-notices';
import { PastInvoices } from './past-invoices';

export function InvoicesSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="invoices" role={role}>
      {organization.billing_via_partner ? (
        <PartnerInvoicesNotice organization={organization} />
      ) : (
        // Keyed by organization: a switch starts again at the first page.
        <PastInvoices key={organization.slug} organization={organization} role={role} />
      )}
    </BillingSection>
  );
}
