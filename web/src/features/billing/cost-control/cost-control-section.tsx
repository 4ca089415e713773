import { BillingSection, type BillingSectionProps } from '../billing-section';

export function CostControlSection({ role }: BillingSectionProps) {
  return <BillingSection section="cost-control" role={role} />;
}
