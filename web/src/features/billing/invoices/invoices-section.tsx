import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerInvoicesNotice } from '../partner-notices';

export function InvoicesSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="invoices" role={role}>
      {organization.billing_via_partner ? (
        <PartnerInvoicesNotice organization={organization} />
      ) : null}
    </BillingSection>
  );
}
