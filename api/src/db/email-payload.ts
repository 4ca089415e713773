// What an outbox row remembers of its event: enough to render the message at delivery, with no URL in
// it (the worker knows the server's public address). Amounts are cents, times unix seconds.

interface Organization {
  slug: string;
  name: string;
}

export type EmailPayload =
  | {
      kind: 'invoice.finalized';
      organization: Organization;
      invoiceId: string;
      number: string;
      periodStart: number;
      periodEnd: number;
      subtotalCents: number;
      creditAppliedCents: number;
      amountDueCents: number;
      collectedByCard: boolean;
    }
  | {
      kind: 'payment.succeeded';
      organization: Organization;
      invoiceId: string;
      invoiceNumber: string;
      amountCents: number;
      paidAt: number;
      card: string | null;
      /** Paid by the backup card after the default card declined (absent before decision 016). */
      paidWithBackup?: boolean;
    }
  | {
      kind: 'payment.failed';
      organization: Organization;
      invoiceId: string;
      invoiceNumber: string;
      amountCents: number;
      reason: string;
      card: string | null;
      /** The backup card, tried in the same attempt after the default card declined, and its answer. */
      backup?: { card: string | null; reason: string };
      nextAttemptAt: number | null;
    }
  | {
      kind: 'restriction.changed';
      organization: Organization;
      from: 'grace_period' | 'grace_period_over' | 'restricted' | null;
      to: 'grace_period' | 'grace_period_over' | 'restricted' | null;
      /** Why: usage above a quota, or an overdue invoice. */
      overduePayment: boolean;
      gracePeriodEnd: number | null;
      /** Names of the metrics above their quota ("Egress"). */
      metrics: string[];
    }
  | {
      kind: 'credits.topped_up';
      organization: Organization;
      amountCents: number;
      balanceCents: number;
      card: string | null;
    }
  | {
      kind: 'plan.changed';
      organization: Organization;
      fromPlan: string;
      toPlan: string;
      chargedCents: number;
      creditedCents: number;
    }
  | {
      kind: 'plan.scheduled';
      organization: Organization;
      toPlan: string;
      at: number;
    }
  | {
      kind: 'spend_cap.changed';
      organization: Organization;
      capOn: boolean;
      chargedCents: number;
    }
  | {
      kind: 'card.expiring';
      organization: Organization;
      card: string;
      expMonth: number;
      expYear: number;
    }
  | {
      kind: 'spend_alert.triggered';
      organization: Organization;
      /** A threshold's percentage, or the projection passing the budget. */
      alert: number | 'projected';
      /** Whole US dollars. */
      budget: number;
      spendCents: number;
      projectedCents: number;
      cycleStart: number;
      cycleEnd: number;
    }
  | {
      kind: 'webhook.disabled';
      organization: Organization;
      endpointId: string;
      url: string;
      failingSince: number;
      lastError: string | null;
    }
  | {
      kind: 'payment.disputed';
      organization: Organization;
      /** The invoice the disputed payment paid; null for a top-up or a plan change's payment. */
      invoiceId: string | null;
      invoiceNumber: string | null;
      amountCents: number;
      /** The provider's reason (`fraudulent`, `product_not_received`, …) and status (`won`, `lost`, …). */
      reason: string;
      status: string;
      /** Opened, or closed with its outcome (`status`). */
      stage: 'opened' | 'closed';
    };

export type EmailEvent = EmailPayload['kind'];
