import { BillingSection, type BillingSectionProps } from '../billing-section';

export function CreditsBalanceSection({ role }: BillingSectionProps) {
  return <BillingSection section="credits-balance" role={role} />;
}
