/** @jsxRuntime automatic */
/** @jsxImportSource react */
import { formatCents, formatPeriod, spendAlertTitle, usedPercent } from '@meterline/domain';
import type { BillingMessage, MessageContext } from './billing-messages.tsx';
import { EmailLayout, Facts, Paragraph, TextLink } from './layout.tsx';

export interface SpendAlertFacts {
  alert: number | 'projected';
  /** Whole US dollars. */
  budget: number;
  spendCents: number;
  projectedCents: number;
  /** Unix seconds. */
  cycleStart: number;
  cycleEnd: number;
}

/** A spend alert: a threshold of the monthly budget reached, or the projection passing it. */
export function spendAlertMessage(context: MessageContext, facts: SpendAlertFacts): BillingMessage {
  const title = spendAlertTitle(facts.alert, facts.budget, facts.spendCents);
  const budget = formatCents(facts.budget * 100);
  const spent = formatCents(facts.spendCents);
  const projected = formatCents(facts.projectedCents);
  const cycle = formatPeriod(facts.cycleStart, facts.cycleEnd);
  const lead =
    facts.alert === 'projected'
      ? `At its current rate, ${context.organizationName} is projected to spend ${projected} this billing cycle, above its ${budget} monthly budget.`
      : `${context.organizationName} has spent ${spent} so far this billing cycle, ${usedPercent(facts.spendCents, facts.budget)}% of its ${budget} monthly budget, reaching its ${facts.alert}% threshold.`;
  return {
    subject: `${context.organizationName}: ${title}`,
    element: (
      <EmailLayout
        preview={`${spent} spent of ${budget}; ${projected} projected`}
        heading={title}
        organizationName={context.organizationName}
        billingUrl={context.billingUrl}
        action={{ label: 'Review usage and budget', href: context.billingUrl }}
      >
        <Paragraph>{lead}</Paragraph>
        <Facts
          rows={[
            ['Billing cycle', cycle],
            ['Spent so far', spent],
            ['Projected by the end of the cycle', projected],
            ['Monthly budget', budget],
          ]}
        />
        <Paragraph>
          A budget only warns: usage goes on. Each alert is sent once per billing cycle. Change the
          budget or its thresholds under Spend alerts on the{' '}
          <TextLink href={`${context.billingUrl}#spend-alerts`}>billing page</TextLink>.
        </Paragraph>
      </EmailLayout>
    ),
  };
}
