import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerAddressNotice } from '../partner-notices';

export function AddressSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="address" role={role}>
      {organization.billing_via_partner ? (
        <PartnerAddressNotice organization={organization} />
      ) : null}
    </BillingSection>
  );
}
