import { BillingSection, type BillingSectionProps } from '../billing-section';

export function EmailSection({ role }: BillingSectionProps) {
  return <BillingSection section="email" role={role} />;
}
