/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { formatCents, formatGraceEnd, formatInvoiceDate, formatPeriod } from '@meterline/domain';
import type { ReactElement } from 'react';
import { EmailLayout, Facts, Paragraph, TextLink } from './layout.tsx';

/** What every billing message knows of its organization, and where its links lead. */
export interface MessageContext {
  organizationName: string;
  /** The organization's billing page, absolute. */
  billingUrl: string;
}

export interface BillingMessage {
  subject: string;
  element: ReactElement;
}

export interface InvoiceFacts {
  number: string;
  /** Unix seconds. */
  periodStart: number;
  periodEnd: number;
  subtotalCents: number;
  creditAppliedCents: number;
  amountDueCents: number;
  pdfUrl: string;
  payUrl: string;
}

export function invoiceFinalizedMessage(
  context: MessageContext,
  invoice: InvoiceFacts & { collectedByCard: boolean },
): BillingMessage {
  const due = formatCents(invoice.amountDueCents);
  const period = formatPeriod(invoice.periodStart, invoice.periodEnd);
  const subject = `Invoice ${invoice.number} for ${context.organizationName}: ${due}`;
  const next =
    invoice.amountDueCents === 0
      ? 'Nothing is due: your credit balance covers it.'
      : invoice.collectedByCard
        ? 'We charge the default card on file now; you get a receipt once it is paid.'
        : 'Pay it from the billing page or with the link below.';
  return {
    subject,
    element: (
      <EmailLayout
        preview={`${due} for ${period}`}
        heading={`Invoice ${invoice.number}`}
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={
          invoice.amountDueCents > 0 && !invoice.collectedByCard
            ? { label: 'Pay now', href: invoice.payUrl }
            : { label: 'Download the PDF', href: invoice.pdfUrl }
        }
      >
        <Paragraph>
          The invoice of {context.organizationName} for {period} is final.
        </Paragraph>
        <Facts
          rows={[
            ['Invoice', invoice.number],
            ['Period', period],
            ['Subtotal', formatCents(invoice.subtotalCents)],
            ['Credit applied', formatCents(-invoice.creditAppliedCents)],
            ['Amount due', due],
          ]}
        />
        <Paragraph>{next}</Paragraph>
        <Paragraph>
          <TextLink href={invoice.pdfUrl}>Invoice PDF</TextLink> ·{' '}
          <TextLink href={context.billingUrl}>Billing page</TextLink>
        </Paragraph>
      </EmailLayout>
    ),
  };
}

export function paymentSucceededMessage(
  context: MessageContext,
  payment: {
    invoiceNumber: string;
    amountCents: number;
    paidAt: number;
    card: string | null;
    paidWithBackup?: boolean;
    pdfUrl: string;
  },
): BillingMessage {
  const amount = formatCents(payment.amountCents);
  return {
    subject: `Receipt for invoice ${payment.invoiceNumber}: ${amount} paid`,
    element: (
      <EmailLayout
        preview={`${amount} paid for invoice ${payment.invoiceNumber}`}
        heading="Payment received"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Download the PDF', href: payment.pdfUrl }}
      >
        <Paragraph>Thank you: invoice {payment.invoiceNumber} is paid.</Paragraph>
        {payment.paidWithBackup ? (
          <Paragraph>
            The default card declined this payment, so we charged the backup card
            {payment.card ? `, ${payment.card}` : ''}, instead. Check the default card on the
            billing page before the next invoice.
          </Paragraph>
        ) : null}
        <Facts
          rows={[
            ['Invoice', payment.invoiceNumber],
            ['Amount paid', amount],
            ['Paid on', formatInvoiceDate(payment.paidAt)],
            ...(payment.card ? [['Paid with', payment.card] as const] : []),
          ]}
        />
      </EmailLayout>
    ),
  };
}

export function paymentFailedMessage(
  context: MessageContext,
  payment: {
    invoiceNumber: string;
    amountCents: number;
    reason: string;
    card: string | null;
    backup?: { card: string | null; reason: string };
    /** Unix seconds of the next automatic attempt, or null when there is none. */
    nextAttemptAt: number | null;
    payUrl: string;
  },
): BillingMessage {
  const amount = formatCents(payment.amountCents);
  const cards = payment.backup ? 'both cards' : 'the card';
  const next =
    payment.nextAttemptAt === null
      ? `We will not try ${cards} again on our own.`
      : `We try ${cards} again on ${formatInvoiceDate(payment.nextAttemptAt)}.`;
  return {
    subject: `Payment of ${amount} failed for invoice ${payment.invoiceNumber}`,
    element: (
      <EmailLayout
        preview={`The card was declined: ${payment.reason}`}
        heading="Your payment failed"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Pay now', href: payment.payUrl }}
      >
        <Paragraph>
          We could not collect {amount} for invoice {payment.invoiceNumber}
          {payment.card ? ` from ${payment.card}` : ''}: {payment.reason}
        </Paragraph>
        {payment.backup ? (
          <Paragraph>
            We also tried the backup card{payment.backup.card ? `, ${payment.backup.card},` : ''}{' '}
            and it was declined too: {payment.backup.reason}
          </Paragraph>
        ) : null}
        <Paragraph>
          {next} An invoice left unpaid for 14 days restricts the organization&apos;s projects until
          it is paid. Pay it now with another card, or replace the default card on the billing page.
        </Paragraph>
      </EmailLayout>
    ),
  };
}

type RestrictionStatus = 'grace_period' | 'grace_period_over' | 'restricted';

export function restrictionChangedMessage(
  context: MessageContext,
  change: {
    from: RestrictionStatus | null;
    to: RestrictionStatus | null;
    overduePayment: boolean;
    gracePeriodEnd: number | null;
    metrics: string[];
  },
): BillingMessage {
  const org = context.organizationName;
  const over = change.metrics.length > 0 ? change.metrics.join(', ') : 'usage';
  const cause = change.overduePayment
    ? 'an invoice is overdue'
    : `${over} went above the plan's quota`;
  let subject: string;
  let heading: string;
  let body: string;
  let action: { label: string; href: string } | undefined = {
    label: 'Open billing',
    href: context.billingUrl,
  };
  if (change.to === null) {
    subject = `${org}: the restriction is lifted`;
    heading = 'Restriction lifted';
    body = `Nothing restricts ${org} any more: its projects work as usual.`;
    action = undefined;
  } else if (change.to === 'grace_period') {
    const until = change.gracePeriodEnd ? ` until ${formatGraceEnd(change.gracePeriodEnd)}` : '';
    subject = `${org} is in a grace period${until}`;
    heading = 'Grace period started';
    body =
      `${org} is in a grace period${until} because ${cause}. Nothing is restricted yet. ` +
      'Upgrade the plan, turn the spend cap off to pay for what goes beyond the quota, or use less ' +
      'before it ends.';
  } else if (change.to === 'grace_period_over') {
    subject = `${org}: the grace period is over`;
    heading = 'Grace period over';
    body =
      `The grace period of ${org} has ended and ${cause}. Its projects may be restricted at any ` +
      'time: upgrade the plan or turn the spend cap off to keep them running.';
  } else {
    subject = `${org}: projects are restricted`;
    heading = 'Projects restricted';
    body = change.overduePayment
      ? `${org}'s projects are restricted because an invoice is overdue. Paying it lifts the restriction at once.`
      : `${org}'s projects are restricted because ${cause}. Upgrading the plan or turning the spend cap off lifts it.`;
  }
  return {
    subject,
    element: (
      <EmailLayout
        preview={body}
        heading={heading}
        organizationName={org}
        billingUrl={context.billingUrl}
        action={action}
      >
        <Paragraph>{body}</Paragraph>
      </EmailLayout>
    ),
  };
}

export function creditsToppedUpMessage(
  context: MessageContext,
  topUp: { amountCents: number; balanceCents: number; card: string | null },
): BillingMessage {
  const amount = formatCents(topUp.amountCents);
  return {
    subject: `${amount} of credits added to ${context.organizationName}`,
    element: (
      <EmailLayout
        preview={`Your credit balance is now ${formatCents(topUp.balanceCents)}`}
        heading="Credits topped up"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
      >
        <Paragraph>
          {amount} of credits are on the balance of {context.organizationName}. Credits are applied
          to the next invoices before any card is charged.
        </Paragraph>
        <Facts
          rows={[
            ['Added', amount],
            ...(topUp.card ? [['Paid with', topUp.card] as const] : []),
            ['Credit balance', formatCents(topUp.balanceCents)],
          ]}
        />
      </EmailLayout>
    ),
  };
}

export function planChangedMessage(
  context: MessageContext,
  change: { fromPlan: string; toPlan: string; chargedCents: number; creditedCents: number },
): BillingMessage {
  return {
    subject: `${context.organizationName} is now on the ${change.toPlan} plan`,
    element: (
      <EmailLayout
        preview={`From the ${change.fromPlan} plan to the ${change.toPlan} plan`}
        heading="Plan changed"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Open billing', href: context.billingUrl }}
      >
        <Paragraph>
          {context.organizationName} moved from the {change.fromPlan} plan to the {change.toPlan}{' '}
          plan. A new billing cycle started with the change.
        </Paragraph>
        <Facts
          rows={[
            ['From', `${change.fromPlan} plan`],
            ['To', `${change.toPlan} plan`],
            ['Charged today', formatCents(change.chargedCents)],
            ...(change.creditedCents > 0
              ? [['Added to the credit balance', formatCents(change.creditedCents)] as const]
              : []),
          ]}
        />
      </EmailLayout>
    ),
  };
}

export function planScheduledMessage(
  context: MessageContext,
  change: { toPlan: string; at: number },
): BillingMessage {
  const when = formatInvoiceDate(change.at);
  return {
    subject: `${context.organizationName} moves to the ${change.toPlan} plan on ${when}`,
    element: (
      <EmailLayout
        preview={`The change takes effect at the end of the billing cycle, on ${when}`}
        heading="Plan change scheduled"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Open billing', href: context.billingUrl }}
      >
        <Paragraph>
          {context.organizationName} moves to the {change.toPlan} plan at the end of its billing
          cycle, on {when}. Until then nothing changes; the change can be cancelled on the billing
          page.
        </Paragraph>
      </EmailLayout>
    ),
  };
}

export function spendCapChangedMessage(
  context: MessageContext,
  change: { capOn: boolean; chargedCents: number },
): BillingMessage {
  const state = change.capOn ? 'on' : 'off';
  return {
    subject: `The spend cap of ${context.organizationName} is ${state}`,
    element: (
      <EmailLayout
        preview={`Spend cap turned ${state}`}
        heading={`Spend cap turned ${state}`}
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
      >
        <Paragraph>
          {change.capOn
            ? 'Usage beyond the included quotas is no longer billed: it is limited instead, after a grace period.'
            : 'Usage beyond the included quotas is billed at the overage prices from now on, and never restricts the projects.'}
        </Paragraph>
        {change.chargedCents > 0 ? (
          <Paragraph>
            {formatCents(change.chargedCents)} of overage used so far was charged with the change.
          </Paragraph>
        ) : null}
      </EmailLayout>
    ),
  };
}

export function cardExpiringMessage(
  context: MessageContext,
  card: { card: string; expMonth: number; expYear: number },
): BillingMessage {
  const expiry = `${String(card.expMonth).padStart(2, '0')}/${card.expYear}`;
  return {
    subject: `The ${card.card} of ${context.organizationName} expires this month`,
    element: (
      <EmailLayout
        preview={`It expires at the end of ${expiry}`}
        heading="A card expires this month"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Add a card', href: `${context.billingUrl}#payment-methods` }}
      >
        <Paragraph>
          The {card.card} on file for {context.organizationName} expires at the end of {expiry}. Add
          another card before then so that the next invoices are paid without interruption.
        </Paragraph>
      </EmailLayout>
    ),
  };
}
