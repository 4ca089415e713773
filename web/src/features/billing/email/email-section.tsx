import { hasPermission } from '@meterline/domain';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { BillingEmailsForm } from './billing-emails-form';

/** The organization details carry the billing emails: billing read on subscriptions shows them. */
export function EmailSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="email" role={role}>
      <BillingEmailsForm
        key={organization.slug}
        organization={organization}
        canUpdate={hasPermission(role, 'update:organizations')}
      />
    </BillingSection>
  );
}
