import { render } from '@react-email/render';
import { signedPayLinkPath } from '../../repositories/pay-links.ts';
import type { EmailPayload } from '../../db/email-payload.ts';
import {
  cardExpiringMessage,
  creditsToppedUpMessage,
  invoiceFinalizedMessage,
  paymentFailedMessage,
  paymentSucceededMessage,
  planChangedMessage,
  planScheduledMessage,
  restrictionChangedMessage,
  spendCapChangedMessage,
  type BillingMessage,
} from './templates/billing-messages.tsx';
import { spendAlertMessage } from './templates/spend-alert-message.tsx';
import { webhookDisabledMessage } from './templates/webhook-messages.tsx';
import { paymentDisputedMessage } from './templates/dispute-message.tsx';

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** What a message's links are made of: the server's public address and the payment links' key. */
export interface MessageLinks {
  baseUrl: string;
  payLinkSecret: string;
}

/**
 * The message of an event, its links absolute under the server's public address. The Pay Now link is
 * the invoice's signed payment link: a recipient who is not a member can pay with a new card.
 */
export function billingMessage(payload: EmailPayload, links: MessageLinks): BillingMessage {
  const { baseUrl } = links;
  const org = encodeURIComponent(payload.organization.slug);
  const context = {
    organizationName: payload.organization.name,
    billingUrl: `${baseUrl}/org/${org}/billing`,
  };
  const invoiceLinks = (invoiceId: string) => ({
    pdfUrl: `${baseUrl}/platform/organizations/${org}/billing/invoices/${encodeURIComponent(invoiceId)}/pdf`,
    payUrl: `${baseUrl}${signedPayLinkPath(links.payLinkSecret, invoiceId, payload.organization.slug)}`,
  });
  switch (payload.kind) {
    case 'invoice.finalized':
      return invoiceFinalizedMessage(context, { ...payload, ...invoiceLinks(payload.invoiceId) });
    case 'payment.succeeded':
      return paymentSucceededMessage(context, { ...payload, ...invoiceLinks(payload.invoiceId) });
    case 'payment.failed':
      return paymentFailedMessage(context, { ...payload, ...invoiceLinks(payload.invoiceId) });
    case 'restriction.changed':
      return restrictionChangedMessage(context, payload);
    case 'credits.topped_up':
      return creditsToppedUpMessage(context, payload);
    case 'plan.changed':
      return planChangedMessage(context, payload);
    case 'plan.scheduled':
      return planScheduledMessage(context, payload);
    case 'spend_cap.changed':
      return spendCapChangedMessage(context, payload);
    case 'card.expiring':
      return cardExpiringMessage(context, payload);
    case 'spend_alert.triggered':
      return spendAlertMessage(context, payload);
    case 'webhook.disabled':
      return webhookDisabledMessage(
        { ...context, webhooksUrl: `${baseUrl}/org/${org}/webhooks` },
        payload,
      );
    case 'payment.disputed':
      return paymentDisputedMessage(context, payload);
  }
}

export async function renderEmail(
  payload: EmailPayload,
  links: MessageLinks,
): Promise<RenderedEmail> {
  const message = billingMessage(payload, links);
  const [html, text] = await Promise.all([
    render(message.element),
    render(message.element, { plainText: true }),
  ]);
  return { subject: message.subject, html, text };
}
