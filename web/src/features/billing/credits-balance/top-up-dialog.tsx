import { useRef, useState, type ComponentProps } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  cardBadges,
  cardBrandName,
  formatCents,
  TOP_UP_AMOUNT_HINT,
  TOP_UP_DEFAULT_DOLLARS,
  topUpAmountSchema,
  type PaymentMethods,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from '../../../lib/toast';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { Notice } from '../../../components/ui/notice';
import { useTopUpMutation } from '../../../data/top-up-mutation';
import { useNow } from '../../../lib/use-now';
import { useCaptcha } from '../../../payments/captcha/captcha';
import { isOutcomeUnknown, useIdempotencyKey } from '../../../payments/idempotency';
import { PaymentFormGate, PaymentMethodsGate } from '../../../payments/payment-form-gate';
import type { PaymentPort } from '../../../payments/payment-port';
import { PaymentsProvider } from '../../../payments/payments-provider';
import { Dialog, DialogBody, DialogFooter, useFocusFirstField } from '../../../payments/ui/dialog';
import { topUpFormSchema, type TopUpFormInput, type TopUpFormOutput } from './top-up-form-schema';

export const TOP_UP_SUCCESS =
  'Successfully topped up balance. It may take a minute to reflect in your account.';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message.trim() : 'Something went wrong.';
}

/** The "Top Up" dialog: an amount, a saved card, the captcha, and the payment port's confirmation. */
export function TopUpDialog({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      dismissible={!busy}
      size="sm"
      title="Top up credits"
      description="Prepay future invoices. Credits never expire and are not refundable."
    >
      <PaymentsProvider>
        <PaymentFormGate>
          {(port) => (
            <TopUpFormLoader
              slug={slug}
              port={port}
              onBusyChange={setBusy}
              onClose={() => onOpenChange(false)}
            />
          )}
        </PaymentFormGate>
      </PaymentsProvider>
    </Dialog>
  );
}

function TopUpFormLoader({
  slug,
  port,
  onBusyChange,
  onClose,
}: {
  slug: string;
  port: PaymentPort;
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
}) {
  return (
    <PaymentMethodsGate slug={slug}>
      {(methods) => (
        <TopUpForm
          slug={slug}
          port={port}
          methods={methods}
          onBusyChange={onBusyChange}
          onClose={onClose}
        />
      )}
    </PaymentMethodsGate>
  );
}

function TopUpForm({
  slug,
  port,
  methods,
  onBusyChange,
  onClose,
}: {
  slug: string;
  port: PaymentPort;
  methods: PaymentMethods;
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
}) {
  const now = useNow();
  const captcha = useCaptcha();
  const topUp = useTopUpMutation(slug);
  const idempotency = useIdempotencyKey();
  const [failure, setFailure] = useState<string | null>(null);
  const [processing, setProcessing] = useState(false);
  // Set synchronously on submit: a second click before React re-renders sends nothing more.
  const submitting = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstField(formRef);

  const usable = methods.data.filter((method) => !cardBadges(method, now).includes('Expired'));
  const preselected =
    usable.find((method) => method.id === methods.defaultPaymentMethodId) ?? usable[0];
  const form = useForm<TopUpFormInput, unknown, TopUpFormOutput>({
    resolver: zodResolver(topUpFormSchema),
    defaultValues: {
      amount: String(TOP_UP_DEFAULT_DOLLARS),
      paymentMethodId: preselected?.id ?? '',
    },
  });
  const { errors } = form.formState;
  const amountText = useWatch({ control: form.control, name: 'amount' });
  const amount = topUpAmountSchema.safeParse(Number(amountText)).data;
  const busy = topUp.isPending;

  const setWorking = (working: boolean) => {
    submitting.current = working;
    onBusyChange(working);
  };

  const onValid = async ({ amount, paymentMethodId }: TopUpFormOutput) => {
    if (submitting.current) return;
    setWorking(true);
    setFailure(null);
    // One key per attempt: the same values sent again while the outcome is unknown reuse it.
    const idempotencyKey = idempotency.keyFor({ amount, paymentMethodId });
    try {
      const hcaptchaToken = await captcha.execute();
      const outcome = await topUp.mutateAsync({
        body: { amount, payment_method_id: paymentMethodId, hcaptcha_token: hcaptchaToken },
        idempotencyKey,
        confirmPayment: (secret) => port.confirmPayment(secret),
      });
      idempotency.settle();
      if (outcome === 'processing') {
        setProcessing(true);
        return;
      }
      toast.success(TOP_UP_SUCCESS);
      onClose();
    } catch (error) {
      if (!isOutcomeUnknown(error)) idempotency.settle();
      const message = messageOf(error);
      toast.error(`Failed to top up credits: ${message}`);
      setFailure(message);
    } finally {
      setWorking(false);
    }
  };

  if (processing) {
    return (
      <>
        <DialogBody>
          <Notice tone="info" role="status" title="Your payment is processing">
            The credit is added to the balance as soon as the bank confirms the payment, usually
            within a few minutes. You can close this window.
          </Notice>
        </DialogBody>
        <DialogFooter>
          <Button variant="primary" onClick={onClose}>
            Close
          </Button>
        </DialogFooter>
      </>
    );
  }

  const noCards = usable.length === 0;
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void form.handleSubmit(onValid)(event)}
      aria-busy={busy || undefined}
      className="flex min-h-0 flex-1 flex-col"
    >
      <DialogBody>
        <fieldset disabled={busy} className="min-w-0 space-y-4">
          <legend className="sr-only">Top-up</legend>
          <FormField label="Amount" hint={TOP_UP_AMOUNT_HINT} error={errors.amount?.message}>
            <AmountInput {...form.register('amount')} />
          </FormField>
          {noCards ? (
            <Notice tone="warning" title="No card to charge">
              Add a card under Payment methods, then top up.
            </Notice>
          ) : (
            <FormField label="Payment method" error={errors.paymentMethodId?.message}>
              <NativeSelect {...form.register('paymentMethodId')}>
                <option value="">Select a card</option>
                {methods.data.map((method) => {
                  const expired = cardBadges(method, now).includes('Expired');
                  const brand = cardBrandName(method.card.brand);
                  return (
                    <option key={method.id} value={method.id} disabled={expired}>
                      {`${brand} ending in ${method.card.last4}`}
                      {method.is_default ? ' (default)' : ''}
                      {expired ? ' (expired)' : ''}
                    </option>
                  );
                })}
              </NativeSelect>
            </FormField>
          )}
          <p className="text-muted-foreground">
            {amount === undefined
              ? 'The card is charged the amount now, and the credit is added to the balance.'
              : `The card is charged ${formatCents(amount * 100)} now, and ${formatCents(amount * 100)} of credit is added to the balance.`}
          </p>
        </fieldset>
        {failure ? (
          <Notice tone="destructive" role="alert" title="Error topping up balance" className="mt-4">
            {failure}
          </Notice>
        ) : null}
      </DialogBody>
      <DialogFooter>
        <Button disabled={busy} onClick={onClose}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="primary"
          disabled={noCards}
          aria-disabled={busy || undefined}
        >
          {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
          Top Up
        </Button>
      </DialogFooter>
    </form>
  );
}

function AmountInput(props: ComponentProps<'input'>) {
  return (
    <div className="relative">
      <span
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-muted-foreground"
      >
        $
      </span>
      <Input
        inputMode="numeric"
        autoComplete="off"
        className="pr-14 pl-7 tabular-nums"
        {...props}
      />
      <span
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-xs text-muted-foreground"
      >
        USD
      </span>
    </div>
  );
}
