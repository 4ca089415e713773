import { isPartnerManaged } from '@meterline/domain';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerManagedNotice } from '../partner-notices';

export function SubscriptionSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="subscription" role={role}>
      {isPartnerManaged(organization) ? (
        <PartnerManagedNotice organization={organization} subject="plan" />
      ) : null}
    </BillingSection>
  );
}
