import { useRef, useState } from 'react';
import {
  cardBadges,
  hasPermission,
  PLAN_CARDS,
  planName,
  type Organization,
  type PaymentMethod,
  type PlanId,
  type Role,
  type SubscriptionPreview,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import {
  isStalePreviewError,
  useSubscriptionPreviewQuery,
} from '../../data/subscription-preview-query';
import { useSubscriptionQuery } from '../../data/subscription-query';
import {
  CONFIRM_PAYMENT_FAILED,
  useSubscriptionUpdateMutation,
} from '../../data/subscription-update-mutation';
import { useNow } from '../../lib/use-now';
import { AddCardFlow } from '../../payments/add-card/add-card-dialog';
import { isOutcomeUnknown, useIdempotencyKey } from '../../payments/idempotency';
import { PaymentFormGate, PaymentMethodsGate } from '../../payments/payment-form-gate';
import type { PaymentPort } from '../../payments/payment-port';
import { PaymentsProvider } from '../../payments/payments-provider';
import { Dialog, DialogBody, DialogFooter } from '../../payments/ui/dialog';
import { PaymentMethodPicker } from './payment-method-picker';
import { UpgradeSummary } from './upgrade-summary';

export { PREVIEW_FAILED } from './upgrade-summary';
export const PRICE_UPDATED = 'The charge was worked out again';
export const CONFIRMING_PAYMENT = 'Confirming payment…';

export function upgradedMessage(target: PlanId): string {
  return `Successfully upgraded subscription to ${planName(target)}!`;
}

/** Subscription errors stay 10 seconds (spec §8, §9); the Toaster gives every toast a close button. */
const ERROR_TOAST = { duration: 10_000, dismissible: true } as const;

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message.trim() : 'Something went wrong.';
}

export interface UpgradeDialogProps {
  organization: Organization;
  role: Role | null;
  /** The plan to upgrade to; null when the dialog is closed. */
  target: PlanId | null;
  onClose: () => void;
  /** The change went through: the composition opens the upgrade survey. */
  onUpgraded: (change: { from: PlanId; to: PlanId }) => void;
}

/**
 * The upgrade dialog (spec §2, §4): the card to pay with (one can be added here), what is charged today
 * line by line from the preview, the monthly invoice to expect, and what the plan adds; Confirm changes
 * the plan through `useSubscriptionUpdateMutation`, with 3-D Secure when the bank asks.
 */
export function UpgradeDialog({
  organization,
  role,
  target,
  onClose,
  onUpgraded,
}: UpgradeDialogProps) {
  const [busy, setBusy] = useState(false);
  // The last target stays while the dialog animates out.
  const [plan, setPlan] = useState<PlanId>(target ?? 'pro');
  if (target && target !== plan) setPlan(target);
  return (
    <Dialog
      open={target !== null}
      onOpenChange={(open) => !open && onClose()}
      dismissible={!busy}
      size="lg"
      title={`Upgrade to ${planName(plan)}`}
      description={`${organization.name} moves to the ${planName(plan)} plan as soon as the payment goes through.`}
    >
      {target ? (
        <PaymentsProvider>
          <PaymentFormGate>
            {(port) => (
              <UpgradeFlow
                organization={organization}
                role={role}
                target={target}
                port={port}
                onBusyChange={setBusy}
                onClose={onClose}
                onUpgraded={onUpgraded}
              />
            )}
          </PaymentFormGate>
        </PaymentsProvider>
      ) : null}
    </Dialog>
  );
}

interface FlowProps {
  organization: Organization;
  role: Role | null;
  target: PlanId;
  port: PaymentPort;
  onBusyChange: (busy: boolean) => void;
  onClose: () => void;
  onUpgraded: UpgradeDialogProps['onUpgraded'];
}

function UpgradeFlow(props: FlowProps) {
  return (
    <PaymentMethodsGate slug={props.organization.slug}>
      {(methods) => (
        <UpgradeSteps
          {...props}
          methods={methods.data}
          defaultId={methods.defaultPaymentMethodId}
        />
      )}
    </PaymentMethodsGate>
  );
}

function UpgradeSteps({
  methods,
  defaultId,
  ...props
}: FlowProps & { methods: PaymentMethod[]; defaultId: string | null }) {
  const now = useNow();
  const { organization, role, port, onBusyChange } = props;
  // A card just added may not be in the refetched list yet: it is shown all the same.
  const [added, setAdded] = useState<PaymentMethod | null>(null);
  const cards = added && !methods.some((m) => m.id === added.id) ? [...methods, added] : methods;
  const usable = cards.filter((method) => !cardBadges(method, now).includes('Expired'));
  const preselected =
    usable.find((method) => method.id === defaultId) ??
    usable.find((method) => method.is_default) ??
    usable[0];
  const [selected, setSelected] = useState<string | null>(preselected?.id ?? null);
  // Without a card, the dialog starts on the card form (acme-free's first upgrade).
  const [addingCard, setAddingCard] = useState(cards.length === 0);
  // Priced without a card: the price is beside the card form from the start.
  const preview = useSubscriptionPreviewQuery(organization.slug, PLAN_CARDS[props.target].id, {
    enabled: addingCard,
  });

  if (addingCard) {
    return (
      <>
        <div className="border-b bg-muted/40 px-5 py-3 sm:px-6">
          <h3 className="text-sm font-semibold">Add a card to pay with</h3>
          <p className="text-xs text-muted-foreground">
            The card is saved for this organization and selected for the upgrade.
          </p>
        </div>
        <AddCardFlow
          slug={organization.slug}
          port={port}
          canUpdateBillingAddress={hasPermission(role, 'billing_write:customer')}
          onBusyChange={onBusyChange}
          onAdded={(method) => {
            setAdded(method);
            setSelected(method.id);
            setAddingCard(false);
          }}
          onCancel={() => (cards.length === 0 ? props.onClose() : setAddingCard(false))}
          aside={
            <UpgradeSummary
              narrow
              target={props.target}
              preview={preview.data}
              error={preview.isError ? preview.error : null}
              onRetry={() => void preview.refetch()}
            />
          }
          asideLabel={`Upgrade to ${planName(props.target)}: what it costs and adds`}
        />
      </>
    );
  }
  return (
    <ReviewForm
      {...props}
      cards={cards}
      selected={selected}
      onSelect={setSelected}
      onAddCard={() => setAddingCard(true)}
    />
  );
}

type Phase = 'idle' | 'submitting' | 'confirming' | 'processing';

function ReviewForm({
  organization,
  target,
  port,
  onBusyChange,
  onClose,
  onUpgraded,
  cards,
  selected,
  onSelect,
  onAddCard,
}: FlowProps & {
  cards: PaymentMethod[];
  selected: string | null;
  onSelect: (id: string) => void;
  onAddCard: () => void;
}) {
  const card = PLAN_CARDS[target];
  const subscription = useSubscriptionQuery(organization.slug);
  const [phase, setPhase] = useState<Phase>('idle');
  const preview = useSubscriptionPreviewQuery(organization.slug, card.id, {
    // The price being paid stays as it was sent; it is refreshed while the owner looks at it.
    refresh: phase === 'idle',
  });
  const update = useSubscriptionUpdateMutation(organization.slug);
  const idempotency = useIdempotencyKey();
  const [failure, setFailure] = useState<string | null>(null);
  const [repriced, setRepriced] = useState(false);
  // Set synchronously: a second click before React re-renders sends nothing more.
  const submitting = useRef(false);
  const busy = phase === 'submitting' || phase === 'confirming';

  const setWorking = (working: boolean) => {
    submitting.current = working;
    onBusyChange(working);
  };

  const confirm = async (data: SubscriptionPreview) => {
    if (submitting.current) return;
    const from = subscription.data?.plan.id ?? organization.plan.id;
    if (data.charge_today > 0 && !selected) {
      setFailure('Choose the card to pay with, or add one.');
      return;
    }
    setFailure(null);
    setRepriced(false);
    setWorking(true);
    setPhase('submitting');
    const body = {
      tier: card.id,
      ...(selected ? { payment_method: selected } : {}),
      proration_date: data.proration_date,
    };
    try {
      const outcome = await update.mutateAsync({
        body,
        idempotencyKey: idempotency.keyFor(body),
        confirmPayment: (secret) => port.confirmPayment(secret),
        onConfirming: () => setPhase('confirming'),
      });
      idempotency.settle();
      if (outcome === 'processing') {
        setPhase('processing');
        return;
      }
      setPhase('idle');
      toast.success(upgradedMessage(target));
      onUpgraded({ from, to: target });
    } catch (error) {
      if (!isOutcomeUnknown(error)) idempotency.settle();
      if (isStalePreviewError(error)) {
        // The price had expired (the dialog stayed open, the computer slept): nothing was charged.
        // Price it again and let the owner confirm the new figures.
        setRepriced(true);
        setPhase('idle');
        void preview.refetch();
        return;
      }
      const message = messageOf(error);
      if (message === CONFIRM_PAYMENT_FAILED) toast.error(CONFIRM_PAYMENT_FAILED, ERROR_TOAST);
      else toast.error(`Unable to update subscription: ${message}`, ERROR_TOAST);
      setFailure(message);
      setPhase('idle');
    } finally {
      setWorking(false);
    }
  };

  if (phase === 'processing') {
    return (
      <>
        <DialogBody>
          <Notice tone="info" role="status" title="Your payment is processing">
            {`The organization moves to the ${card.name} plan as soon as the bank confirms the payment, usually within a few minutes. You can close this window.`}
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

  return (
    <form
      noValidate
      aria-busy={busy || undefined}
      className="flex min-h-0 flex-1 flex-col"
      onSubmit={(event) => {
        event.preventDefault();
        if (preview.data) void confirm(preview.data);
      }}
    >
      <DialogBody className="space-y-6">
        <PaymentMethodPicker
          methods={cards}
          selected={selected}
          onSelect={onSelect}
          onAddCard={onAddCard}
          disabled={busy}
        />

        <UpgradeSummary
          target={target}
          preview={preview.data}
          error={preview.isError ? preview.error : null}
          onRetry={() => void preview.refetch()}
        />
      </DialogBody>
      {phase === 'confirming' || repriced || failure ? (
        // Above the actions, outside the scrolling body: seen without scrolling down the charge.
        <div className="space-y-3 border-t px-5 py-3 sm:px-6">
          {phase === 'confirming' ? (
            <p role="status" className="flex items-center gap-2 text-muted-foreground">
              <Loader2 aria-hidden className="size-4 animate-spin" />
              {CONFIRMING_PAYMENT}
            </p>
          ) : null}
          {repriced ? (
            <Notice tone="info" role="status" title={PRICE_UPDATED}>
              The price shown had expired, so nothing was charged. Check the charge today and
              confirm again.
            </Notice>
          ) : null}
          {failure ? (
            <Notice tone="destructive" role="alert" title="The upgrade did not go through">
              {failure}
            </Notice>
          ) : null}
        </div>
      ) : null}
      <DialogFooter>
        <Button disabled={busy} onClick={onClose}>
          Cancel
        </Button>
        <Button
          type="submit"
          variant="primary"
          // After an expired price, Confirm waits for the new one.
          disabled={!preview.data || (repriced && preview.isFetching)}
          aria-disabled={busy || undefined}
        >
          {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
          {busy ? 'Upgrading…' : `Confirm upgrade`}
        </Button>
      </DialogFooter>
    </form>
  );
}
