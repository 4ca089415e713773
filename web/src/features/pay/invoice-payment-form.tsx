import { useId, useRef, useState, type FormEvent } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import {
  cardBrandName,
  cardsDefaultFirst,
  formatCents,
  lastChargeDeclined,
  preselectedCard,
  type InvoiceDetail,
  type PaymentMethod,
} from '@meterline/domain';
import { AlertTriangle, Loader2, Lock, Plus } from 'lucide-react';
import { Link, useNavigate } from '../../lib/router';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import {
  usePayInvoiceMutation,
  type PayInvoiceOutcome,
  type PayInvoiceRequest,
} from '../../data/pay-invoice-mutation';
import { usePaymentMethodsQuery } from '../../data/payment-methods-query';
import { useNow } from '../../lib/use-now';
import { useCardEntry } from '../../payments/card-entry-context';
import { isOutcomeUnknown, useIdempotencyKey } from '../../payments/idempotency';
import { CardFieldsSkeleton } from '../../payments/payment-form-gate';
import type { PaymentPort } from '../../payments/payment-port';
import { CardOption } from '../../payments/ui/card-option';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message.trim() : 'Something went wrong.';
}

export function billingPath(slug: string): string {
  return `/org/${encodeURIComponent(slug)}/billing`;
}

/**
 * The payment part of the hosted invoice page. A member who may read the organization's cards is
 * offered them (the default first, chosen unless it would fail) beside a new card; anyone else who
 * may pay gets the new-card form alone. The server checks the same again: a saved card pays only for
 * a member with billing write on its own organization.
 */
export function InvoicePaymentForm({
  slug,
  invoice,
  port,
  offerSavedCards,
}: {
  slug: string;
  invoice: InvoiceDetail;
  port: PaymentPort;
  offerSavedCards: boolean;
}) {
  const methods = usePaymentMethodsQuery(slug, { enabled: offerSavedCards });
  const navigate = useNavigate();
  const pay = usePayInvoiceMutation(slug, invoice.id);
  const submission: PaySubmission = {
    pay,
    onPaid: async () => {
      toast.success(`Successfully paid invoice ${invoice.number}`);
      await navigate(billingPath(slug));
    },
    backTo: billingPath(slug),
  };
  if (!offerSavedCards) return <PayForm invoice={invoice} port={port} saved={[]} {...submission} />;
  if (methods.isPending) return <CardFieldsSkeleton />;
  // Saved cards that cannot be read leave the new card: paying must not wait on them.
  return (
    <PayForm
      invoice={invoice}
      port={port}
      saved={methods.isError ? [] : cardsDefaultFirst(methods.data.data)}
      {...submission}
    />
  );
}

/** How a payment is sent, and what follows it: the member's call, or the payment link's. */
export interface PaySubmission {
  pay: UseMutationResult<PayInvoiceOutcome, Error, PayInvoiceRequest>;
  onPaid: () => Promise<void> | void;
  /** Where the notice of a payment still processing leads back to; null for no link. */
  backTo: string | null;
}

/** The new-card form alone: what the holder of an invoice's payment link is offered. */
export function NewCardPaymentForm({
  invoice,
  port,
  ...submission
}: { invoice: InvoiceDetail; port: PaymentPort } & PaySubmission) {
  return <PayForm invoice={invoice} port={port} saved={[]} {...submission} />;
}

function PayForm({
  invoice,
  port,
  saved,
  pay,
  onPaid,
  backTo,
}: {
  invoice: InvoiceDetail;
  port: PaymentPort;
  saved: readonly PaymentMethod[];
} & PaySubmission) {
  const now = useNow();
  const card = useCardEntry();
  const idempotency = useIdempotencyKey();
  const groupName = useId();
  // The saved card chosen, or null for a new card typed in the port's fields.
  const [choice, setChoice] = useState<string | null>(() => preselectedCard(saved, now));
  // The card's token of the current attempt: a retry while its outcome is unknown pays with the
  // same token under the same key, so the server answers the first attempt instead of a new one.
  const token = useRef<{ key: string; paymentMethodId: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  // Set synchronously: a second click before React re-renders pays nothing more.
  const submitting = useRef(false);
  const busy = pay.isPending;
  const chosen = saved.find((method) => method.id === choice) ?? null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting.current) return;
    setFailure(null);
    if (!chosen && !card.validate()) return;
    submitting.current = true;
    const idempotencyKey = idempotency.keyFor({ invoice: invoice.id, card: chosen?.id ?? 'new' });
    try {
      const outcome = await pay.mutateAsync({
        idempotencyKey,
        paymentMethodId: async () => {
          if (chosen) return chosen.id;
          if (token.current?.key === idempotencyKey) return token.current.paymentMethodId;
          const { paymentMethodId } = await card.createPaymentMethod();
          token.current = { key: idempotencyKey, paymentMethodId };
          return paymentMethodId;
        },
        confirmPayment: (secret) => port.confirmPayment(secret),
      });
      idempotency.settle();
      if (outcome === 'processing') {
        setProcessing(true);
        return;
      }
      await onPaid();
    } catch (error) {
      if (!isOutcomeUnknown(error)) idempotency.settle();
      setFailure(messageOf(error));
    } finally {
      submitting.current = false;
    }
  };

  if (processing) {
    return (
      <Notice
        tone="info"
        role="status"
        title="Your payment is processing"
        actions={
          backTo ? (
            <Button size="sm" asChild>
              <Link to={backTo}>Back to billing</Link>
            </Button>
          ) : undefined
        }
      >
        The invoice is marked paid as soon as the bank confirms the payment, usually within a few
        minutes.
      </Notice>
    );
  }

  const amount = formatCents(invoice.amount_due);
  return (
    <form noValidate onSubmit={(event) => void submit(event)} aria-busy={busy || undefined}>
      {saved.length > 0 ? (
        <fieldset disabled={busy} className="min-w-0 space-y-3">
          <legend className="mb-3 text-sm font-semibold">Pay with</legend>
          <div className="divide-y rounded-md border">
            {saved.map((method) => (
              <CardOption
                key={method.id}
                method={method}
                name={groupName}
                checked={choice === method.id}
                onSelect={(id) => {
                  setFailure(null);
                  setChoice(id);
                }}
                now={now}
                note={<DeclineNote method={method} />}
              />
            ))}
            <label className="flex cursor-pointer items-center gap-3 px-3 py-2.5 has-[:checked]:bg-muted/60">
              <input
                type="radio"
                name={groupName}
                value="new"
                checked={choice === null}
                onChange={() => {
                  setFailure(null);
                  setChoice(null);
                }}
                className="size-4 shrink-0 accent-primary"
              />
              <Plus aria-hidden className="size-4 shrink-0 text-muted-foreground" />
              <span className="font-medium">New card</span>
            </label>
          </div>
          {choice === null ? <port.CardFields disabled={busy} /> : null}
        </fieldset>
      ) : (
        <fieldset disabled={busy} className="min-w-0 space-y-4">
          <legend className="mb-3 text-sm font-semibold">Pay with card</legend>
          <port.CardFields disabled={busy} />
        </fieldset>
      )}
      {failure ? (
        <Notice tone="destructive" role="alert" title="Payment failed" className="mt-4">
          {failure}
        </Notice>
      ) : null}
      <Button
        type="submit"
        variant="primary"
        className="mt-5 w-full"
        aria-disabled={busy || undefined}
      >
        {busy ? <Loader2 aria-hidden className="animate-spin" /> : <Lock aria-hidden />}
        Pay
      </Button>
      <p className="mt-3 text-center text-xs text-muted-foreground">
        {chosen
          ? `${amount} will be charged to the ${cardBrandName(chosen.card.brand)} ending in ${chosen.card.last4}.`
          : `${amount} will be charged to this card. It is not saved.`}
      </p>
    </form>
  );
}

function DeclineNote({ method }: { method: PaymentMethod }) {
  const declined = lastChargeDeclined(method);
  if (!declined) return null;
  return (
    <span className="mt-0.5 flex items-start gap-1 text-xs text-destructive">
      <AlertTriangle aria-hidden className="mt-px size-3 shrink-0" />
      {declined.title}
    </span>
  );
}
