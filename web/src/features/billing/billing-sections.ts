import type { BillingSection } from '@meterline/domain';

interface SectionCopy {
  title: string;
  /** One neutral line on what the section is for; its content arrives with later issues. */
  description: string;
  /** Completes "You need additional permissions to ..." when the read permission is missing. */
  deniedAction: string;
}

export const SECTION_COPY: Record<BillingSection, SectionCopy> = {
  subscription: {
    title: 'Subscription plan',
    description: 'The plan this organization is on and what it includes.',
    deniedAction: "view this organization's subscription",
  },
  'cost-control': {
    title: 'Cost control',
    description: "Whether usage beyond the plan's included quota is billed or capped.",
    deniedAction: "update this organization's cost control",
  },
  'spend-alerts': {
    title: 'Spend alerts',
    description:
      'A monthly budget whose thresholds email the billing recipients and show a banner here. It only warns: usage goes on.',
    deniedAction: "view this organization's spend alerts",
  },
  breakdown: {
    title: 'Upcoming invoice',
    description: 'Charges so far in the current billing cycle and the projected total at its end.',
    deniedAction: "view this organization's upcoming invoice",
  },
  invoices: {
    title: 'Invoices',
    description: 'Invoices from previous billing cycles, to download or pay.',
    deniedAction: "view this organization's invoices",
  },
  'payment-methods': {
    title: 'Payment methods',
    description: "The cards charged for this organization's invoices.",
    deniedAction: "view this organization's payment methods",
  },
  'credits-balance': {
    title: 'Credit balance',
    description: 'Credit applied to future invoices before any payment method is charged.',
    deniedAction: "view this organization's credits",
  },
  email: {
    title: 'Email recipients',
    description: 'Who receives invoices and billing notices by email.',
    deniedAction: "view this organization's email recipients",
  },
  address: {
    title: 'Billing address & tax ID',
    description: 'The billing address and tax ID printed on invoices.',
    deniedAction: "view this organization's billing address",
  },
};
