/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { formatInvoiceDate } from '@meterline/domain';
import { EmailLayout, Facts, Paragraph, TextLink } from './layout.tsx';
import type { BillingMessage, MessageContext } from './billing-messages.tsx';

/** An endpoint failed every delivery for 3 days and was turned off (decision 014). */
export function webhookDisabledMessage(
  context: MessageContext & { webhooksUrl: string },
  endpoint: { url: string; failingSince: number; lastError: string | null },
): BillingMessage {
  const subject = `Webhook endpoint disabled for ${context.organizationName}`;
  return {
    subject,
    element: (
      <EmailLayout
        preview={`Deliveries to ${endpoint.url} failed for 3 days`}
        heading="A webhook endpoint was disabled"
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Open webhooks', href: context.webhooksUrl }}
      >
        <Paragraph>
          Every delivery to this endpoint of {context.organizationName} has failed for 3 days, so we
          stopped sending to it. Events decided while it is off are not sent to it.
        </Paragraph>
        <Facts
          rows={[
            ['Endpoint', endpoint.url],
            ['Failing since', formatInvoiceDate(endpoint.failingSince)],
            ['Last error', endpoint.lastError ?? 'None recorded'],
          ]}
        />
        <Paragraph>
          Fix the receiver, then enable the endpoint again and resend what it missed from its
          deliveries: <TextLink href={context.webhooksUrl}>Webhooks</TextLink>.
        </Paragraph>
      </EmailLayout>
    ),
  };
}
