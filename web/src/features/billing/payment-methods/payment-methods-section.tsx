import { isPartnerManaged } from '@meterline/domain';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerManagedNotice } from '../partner-notices';

/** Hidden when billed via a partner; a partner-managed organization still sees who manages it. */
export function PaymentMethodsSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="payment-methods" role={role}>
      {isPartnerManaged(organization) ? (
        <PartnerManagedNotice organization={organization} subject="payment-methods" />
      ) : null}
    </BillingSection>
  );
}
