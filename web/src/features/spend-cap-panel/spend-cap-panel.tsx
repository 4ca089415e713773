import { useId, useState } from 'react';
import {
  formatUsage,
  hasPermission,
  isSpendCapOn,
  SUBSCRIPTION_ERROR_TOAST_MS,
  spendCapConfirmBlocker,
  spendCapRefusal,
  spendCapRateTable,
  spendCapToggledMessage,
  spendCapToggleFailedMessage,
  type Organization,
  type Role,
  type Subscription,
} from '@meterline/domain';
import { Check } from 'lucide-react';
import { toast } from '../../lib/toast';
import { BlockedButton } from '../../components/blocked-button';
import { ErrorState } from '../../components/error-state';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { Sheet } from '../../components/ui/sheet';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { useSubscriptionQuery } from '../../data/subscription-query';
import { useSubscriptionUpdateMutation } from '../../data/subscription-update-mutation';
import { isStalePreviewError } from '../../data/subscription-preview-query';
import { useSpendCapPreviewQuery } from '../../data/spend-cap-preview-query';
import { cn } from '../../lib/cn';
import { isOutcomeUnknown, useIdempotencyKey } from '../../payments/idempotency';
import { PaymentsProvider, usePaymentPort } from '../../payments/payments-provider';
import { SpendCapCharge } from './spend-cap-charge';

export const SPEND_CAP_PANEL_TITLE = 'Spend cap';

export interface SpendCapPanelProps {
  organization: Organization;
  role: Role | null;
  projectUpdatesDisabled: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Free plan: "Upgrade plan" opens the plan panel instead. */
  onUpgradePlan: () => void;
}

/**
 * The spend cap side panel (`?panel=costControl`, spec §2 and §4, product-decisions §10): where the cap
 * stands, a draft choice between on and off, what the cap covers and what usage beyond the quota costs,
 * and that toggling issues an invoice for usage beyond the quota so far. Confirm sends the Pro tier (on)
 * or the pay-as-you-go tier (off) through the plan change's call, with 3-D Secure when the bank asks.
 */
export function SpendCapPanel({ organization, open, onOpenChange, ...rest }: SpendCapPanelProps) {
  return (
    <Sheet
      open={open}
      onOpenChange={onOpenChange}
      title={SPEND_CAP_PANEL_TITLE}
      description={`For ${organization.name}`}
      className="max-w-xl"
    >
      <PaymentsProvider>
        <SpendCapPanelBody
          organization={organization}
          onDone={() => onOpenChange(false)}
          {...rest}
        />
      </PaymentsProvider>
    </Sheet>
  );
}

function SpendCapPanelBody({
  organization,
  role,
  projectUpdatesDisabled,
  onUpgradePlan,
  onDone,
}: Omit<SpendCapPanelProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
  const subscription = useSubscriptionQuery(organization.slug);
  if (subscription.isError) {
    return (
      <ErrorState
        title="Failed to retrieve subscription"
        error={subscription.error}
        onRetry={() => void subscription.refetch()}
      />
    );
  }
  if (!subscription.data) {
    return (
      <LoadingRegion label="Loading spend cap" className="space-y-3">
        <Skeleton className="h-5 w-40" />
        <Skeleton className="h-24 w-full" />
        <Skeleton className="h-24 w-full" />
      </LoadingRegion>
    );
  }
  return (
    <SpendCapForm
      // A new setting on the server starts a new draft.
      key={String(subscription.data.usage_billing_enabled)}
      organization={organization}
      role={role}
      projectUpdatesDisabled={projectUpdatesDisabled}
      subscription={subscription.data}
      onUpgradePlan={onUpgradePlan}
      onDone={onDone}
    />
  );
}

const OPTIONS = [
  {
    capOn: true,
    title: 'Spend cap on',
    billing: 'You pay the plan and compute only: usage beyond the included quota is never billed.',
    services:
      'Once a quota is used up, the service it covers is limited until the next billing cycle.',
  },
  {
    capOn: false,
    title: 'Spend cap off',
    billing:
      'Usage beyond the included quota is billed at the rates below, at the end of the billing cycle.',
    services: 'Services keep running at full capacity whatever the usage.',
  },
] as const;

function SpendCapForm({
  organization,
  role,
  projectUpdatesDisabled,
  subscription,
  onUpgradePlan,
  onDone,
}: {
  organization: Organization;
  role: Role | null;
  projectUpdatesDisabled: boolean;
  subscription: Subscription;
  onUpgradePlan: () => void;
  onDone: () => void;
}) {
  const current = isSpendCapOn(subscription.plan.id, subscription.usage_billing_enabled);
  const [draft, setDraft] = useState(current);
  const change = useSubscriptionUpdateMutation(organization.slug);
  const portState = usePaymentPort();
  const idempotency = useIdempotencyKey();
  const [confirmingPayment, setConfirmingPayment] = useState(false);
  const groupId = useId();

  const context = {
    organization,
    subscription: {
      plan_id: subscription.plan.id,
      usage_billing_enabled: subscription.usage_billing_enabled,
      billing_partner: subscription.billing_partner,
    },
    projectUpdatesDisabled,
    canUpdateSubscription: hasPermission(role, 'billing_write:subscriptions'),
  };
  const rawBlock = spendCapConfirmBlocker(context, draft, change.isPending);
  const isFree = subscription.plan.id === 'free';
  // What the toggle charges now, priced as it is charged: asked once the draft differs and the toggle
  // may go ahead, and sent back with it so that what is shown is what is charged.
  const preview = useSpendCapPreviewQuery(organization.slug, draft, {
    enabled: rawBlock === null,
    refresh: !change.isPending,
  });
  const block = rawBlock ?? (preview.data ? null : ({ reason: 'loading', message: null } as const));
  // Why this member cannot turn the cap either way (permission, the global switch, the plan, the
  // marketplace), said once at the top; the Free plan's own notice says it for Free.
  const refusal = isFree ? null : spendCapRefusal(context, !current);

  const confirm = async () => {
    const priced = preview.data;
    if (!priced) return;
    const tier = priced.tier;
    const idempotencyKey = idempotency.keyFor({ tier, proration_date: priced.proration_date });
    try {
      await change.mutateAsync({
        body: { tier, proration_date: priced.proration_date },
        idempotencyKey,
        confirmPayment: (secret) =>
          portState.status === 'ready'
            ? portState.port.confirmPayment(secret)
            : Promise.reject(new Error('The payment form is not ready')),
        onConfirming: () => setConfirmingPayment(true),
      });
      idempotency.settle();
      toast.success(spendCapToggledMessage(draft));
      onDone();
    } catch (error) {
      if (!isOutcomeUnknown(error)) idempotency.settle();
      // A price the server no longer honours: show the new one before anything is charged.
      if (isStalePreviewError(error)) void preview.refetch();
      const message =
        error instanceof Error && error.message ? error.message : 'Something went wrong.';
      toast.error(spendCapToggleFailedMessage(message), {
        duration: SUBSCRIPTION_ERROR_TOAST_MS,
        dismissible: true,
      });
    } finally {
      setConfirmingPayment(false);
    }
  };

  return (
    <div className="space-y-6">
      {refusal ? (
        <Notice tone="lock" title={refusal.message}>
          {refusal.reason === 'no_permission'
            ? 'Contact your organization owner or administrator for assistance.'
            : null}
        </Notice>
      ) : null}
      <div className="flex items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">Currently</p>
        <Badge tone={current ? 'success' : 'neutral'}>
          {current ? 'Spend cap on' : 'Spend cap off'}
        </Badge>
      </div>

      {isFree ? (
        <Notice
          title="The Free plan always has the spend cap on"
          actions={
            <Button variant="secondary" onClick={onUpgradePlan}>
              Upgrade plan
            </Button>
          }
        >
          Usage beyond the Free plan&apos;s quota is never billed: services are limited instead. To
          pay for usage beyond the quota and keep services running, upgrade to Pro and turn the
          spend cap off.
        </Notice>
      ) : null}

      <fieldset className="space-y-3" disabled={isFree || refusal !== null || change.isPending}>
        <legend id={groupId} className="mb-3 text-sm font-medium">
          Choose the spend cap
        </legend>
        <div role="radiogroup" aria-labelledby={groupId} className="grid gap-3">
          {OPTIONS.map((option) => {
            const selected = draft === option.capOn;
            return (
              <label
                key={String(option.capOn)}
                className={cn(
                  'flex gap-3 rounded-lg border bg-card p-4 transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                  selected ? 'border-primary ring-1 ring-primary' : 'hover:bg-muted/60',
                  isFree || refusal !== null || change.isPending
                    ? 'cursor-not-allowed opacity-70'
                    : 'cursor-pointer',
                )}
              >
                <input
                  type="radio"
                  name="spend-cap"
                  className="sr-only"
                  checked={selected}
                  onChange={() => setDraft(option.capOn)}
                />
                <span
                  aria-hidden
                  className={cn(
                    'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-full border',
                    selected
                      ? 'border-primary bg-primary text-primary-foreground'
                      : 'bg-background',
                  )}
                >
                  {selected ? <Check className="size-3" /> : null}
                </span>
                <span className="min-w-0 space-y-1">
                  <span className="flex flex-wrap items-center gap-2 font-medium">
                    {option.title}
                    {option.capOn === current ? <Badge tone="neutral">Current</Badge> : null}
                  </span>
                  <span className="block text-sm text-muted-foreground">{option.billing}</span>
                  <span className="block text-sm text-muted-foreground">{option.services}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      <SpendCapRates />

      <p className="text-sm text-muted-foreground">
        Changing the spend cap does not move your billing cycle. Turning it on issues an invoice at
        once for the usage beyond the quota so far this cycle, charged to your default card; turning
        it off bills only the usage beyond the quota from then on, with the cycle&apos;s invoice.
      </p>

      {rawBlock === null ? (
        <SpendCapCharge
          preview={preview.data}
          error={preview.isError ? preview.error : null}
          onRetry={() => void preview.refetch()}
        />
      ) : null}

      {confirmingPayment ? (
        <p role="status" className="text-sm text-muted-foreground">
          Confirming the payment with your bank…
        </p>
      ) : null}

      <div className="flex flex-col-reverse gap-2 border-t pt-4 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone} disabled={change.isPending}>
          Cancel
        </Button>
        <BlockedButton
          blocker={block?.message ?? null}
          disabled={block !== null}
          onClick={() => void confirm()}
        >
          {change.isPending ? 'Confirming…' : 'Confirm'}
        </BlockedButton>
      </div>
    </div>
  );
}

/** What the cap covers, and what usage beyond Pro's quota costs with it off (the catalogue's rates). */
function SpendCapRates() {
  return (
    <section aria-labelledby="spend-cap-rates" className="space-y-3">
      <h3 id="spend-cap-rates" className="text-sm font-medium">
        What the spend cap covers
      </h3>
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full text-sm">
          <caption className="sr-only">
            Resources covered by the spend cap, with the Pro plan&apos;s included quota and the
            price of usage beyond it
          </caption>
          <thead className="bg-muted text-left text-muted-foreground">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Usage
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Included
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Beyond the quota
              </th>
            </tr>
          </thead>
          {spendCapRateTable().map((resource) => (
            <tbody key={resource.resource} className="border-t">
              <tr>
                <th
                  scope="rowgroup"
                  colSpan={3}
                  className="px-3 pt-2 pb-1 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                >
                  {resource.name}
                </th>
              </tr>
              {resource.rates.map((rate) => (
                <tr key={rate.metric}>
                  <th scope="row" className="px-3 py-1.5 text-left font-normal">
                    {rate.name}
                  </th>
                  <td className="px-3 py-1.5 text-right tabular-nums">
                    {formatUsage(rate.metric, rate.included)}
                  </td>
                  <td className="px-3 py-1.5 text-right tabular-nums">{rate.price}</td>
                </tr>
              ))}
            </tbody>
          ))}
        </table>
      </div>
    </section>
  );
}
