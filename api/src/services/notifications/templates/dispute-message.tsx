/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { formatCents } from '@meterline/domain';
import { EmailLayout, Facts, Paragraph } from './layout.tsx';
import type { BillingMessage, MessageContext } from './billing-messages.tsx';

const words = (value: string) => value.replaceAll('_', ' ');

/** A payment's dispute (chargeback) opened by the card holder's bank, or closed with its outcome. */
export function paymentDisputedMessage(
  context: MessageContext,
  dispute: {
    invoiceNumber: string | null;
    amountCents: number;
    reason: string;
    status: string;
    stage: 'opened' | 'closed';
  },
): BillingMessage {
  const amount = formatCents(dispute.amountCents);
  const what = dispute.invoiceNumber ? `invoice ${dispute.invoiceNumber}` : 'a payment';
  const opened = dispute.stage === 'opened';
  const subject = opened
    ? `A payment of ${context.organizationName} is disputed (${amount})`
    : `The dispute of a payment of ${context.organizationName} is closed: ${words(dispute.status)}`;
  return {
    subject,
    element: (
      <EmailLayout
        preview={opened ? `${amount} of ${what} is disputed` : `Dispute ${words(dispute.status)}`}
        heading={opened ? 'A payment is disputed' : 'A payment dispute is closed'}
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
      >
        <Paragraph>
          {opened
            ? `The bank of the card that paid ${what} of ${context.organizationName} disputed the payment. While the dispute is open, the amount is held by the card provider.`
            : `The dispute of the payment of ${what} of ${context.organizationName} is closed: ${words(dispute.status)}.`}
        </Paragraph>
        <Facts
          rows={[
            ['Payment of', what],
            ['Disputed amount', amount],
            ['Reason', words(dispute.reason)],
            ['Status', words(dispute.status)],
          ]}
        />
      </EmailLayout>
    ),
  };
}
