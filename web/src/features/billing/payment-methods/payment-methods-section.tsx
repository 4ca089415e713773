import { lazy, Suspense, useId, useState } from 'react';
import {
  hasPermission,
  isPartnerManaged,
  type PaymentMethod,
  type PlanId,
} from '@meterline/domain';
import { useQueryClient } from '@tanstack/react-query';
import { CreditCard, Plus } from 'lucide-react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorState } from '../../../components/error-state';
import { Button } from '../../../components/ui/button';
import { LoadingRegion, Skeleton } from '../../../components/ui/skeleton';
import { Tooltip } from '../../../components/ui/tooltip';
import { paymentsConfigQueryOptions } from '../../../data/payments-config-query';
import { usePaymentMethodsQuery } from '../../../data/payment-methods-query';
import { useSubscriptionQuery } from '../../../data/subscription-query';
import { BillingSection, type BillingSectionProps } from '../billing-section';
import { PartnerManagedNotice } from '../partner-notices';
import { useOnceOpened } from '../../../lib/use-once-opened';

// The dialog's code loads when the button is reached for (with the provider's configuration).
const loadAddCardDialog = () => import('../../../payments/add-card/add-card-dialog');
const AddCardDialog = lazy(async () => ({ default: (await loadAddCardDialog()).AddCardDialog }));
import { PaymentMethodRow } from './payment-method-row';

export const MANAGE_PAYMENT_METHODS_DENIED =
  'You need additional permissions to manage payment methods';

/** Hidden when billed via a partner; a partner-managed organization still sees who manages it. */
export function PaymentMethodsSection({ organization, role }: BillingSectionProps) {
  return (
    <BillingSection section="payment-methods" role={role}>
      {isPartnerManaged(organization) ? (
        <PartnerManagedNotice organization={organization} subject="payment-methods" />
      ) : (
        <PaymentMethods
          slug={organization.slug}
          planId={organization.plan.id}
          canWrite={hasPermission(role, 'billing_write:payment_methods')}
          canWriteCustomer={hasPermission(role, 'billing_write:customer')}
        />
      )}
    </BillingSection>
  );
}

/** Rendered only with billing read on payment methods (the frame shows its notice otherwise). */
function PaymentMethods({
  slug,
  planId,
  canWrite,
  canWriteCustomer,
}: {
  slug: string;
  planId: PlanId;
  canWrite: boolean;
  canWriteCustomer: boolean;
}) {
  const methods = usePaymentMethodsQuery(slug);
  // An organization that pays by invoice (enterprise) is never charged automatically.
  const paysByInvoice = useSubscriptionQuery(slug).data?.payment_method_type === 'invoice';
  const [adding, setAdding] = useState(false);
  const addMounted = useOnceOpened(adding);
  const queryClient = useQueryClient();
  const hasBackup = methods.data?.data.some((method) => method.is_backup) ?? false;

  let body;
  if (methods.isPending) body = <PaymentMethodsSkeleton />;
  else if (methods.isError) {
    body = (
      <ErrorState
        title="Failed to retrieve payment methods"
        error={methods.error}
        onRetry={() => void methods.refetch()}
      />
    );
  } else if (methods.data.data.length === 0) {
    body = (
      <EmptyState
        icon={CreditCard}
        title="No payment methods yet"
        description={
          paysByInvoice
            ? 'A card is optional: add one to pay an invoice online or to top up the credit balance.'
            : "Add a card to pay this organization's invoices and top up its credit balance."
        }
        compact
      />
    );
  } else {
    const cards = sortDefaultAndBackupFirst(methods.data.data);
    body = (
      <ul aria-label="Cards" className="divide-y rounded-md border">
        {cards.map((method) => (
          <PaymentMethodRow
            key={method.id}
            slug={slug}
            method={method}
            planId={planId}
            cardCount={cards.length}
            canWrite={canWrite}
            hasOtherBackup={cards.some((other) => other.is_backup && other.id !== method.id)}
          />
        ))}
      </ul>
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        {paysByInvoice ? (
          <p className="text-muted-foreground">
            This organization pays by invoice: each invoice is emailed to the billing recipients and
            paid by its due date, never charged to a card automatically.
          </p>
        ) : (
          <p className="text-muted-foreground">
            Invoices are charged to the default card at the end of each billing cycle
            {hasBackup ? ', or to the backup card when the default card is declined.' : '.'}
          </p>
        )}
        <AddCardButton
          canWrite={canWrite}
          onClick={() => setAdding(true)}
          // The provider's configuration is fetched while the pointer is on its way.
          onIntent={() => {
            void queryClient.prefetchQuery(paymentsConfigQueryOptions());
            void loadAddCardDialog().catch(() => undefined);
          }}
        />
      </div>
      {body}
      {canWrite && addMounted ? (
        <Suspense fallback={null}>
          <AddCardDialog
            slug={slug}
            open={adding}
            onOpenChange={setAdding}
            canUpdateBillingAddress={canWriteCustomer}
          />
        </Suspense>
      ) : null}
    </div>
  );
}

/** The default card first, the backup card next, then the rest in the order the API gave. */
function sortDefaultAndBackupFirst(methods: PaymentMethod[]): PaymentMethod[] {
  const rank = (method: PaymentMethod) => (method.is_default ? 0 : method.is_backup ? 1 : 2);
  return [...methods].sort((a, b) => rank(a) - rank(b));
}

function AddCardButton({
  canWrite,
  onClick,
  onIntent,
}: {
  canWrite: boolean;
  onClick: () => void;
  onIntent: () => void;
}) {
  const reasonId = useId();
  const label = 'Add new card';
  if (!canWrite) {
    return (
      <Tooltip content={MANAGE_PAYMENT_METHODS_DENIED}>
        {/* A disabled button takes no focus or hover: the wrapper carries the tooltip. */}
        <span
          tabIndex={0}
          aria-describedby={reasonId}
          className="inline-flex self-start rounded-md"
        >
          <Button disabled>
            <Plus aria-hidden />
            {label}
          </Button>
          <span id={reasonId} className="sr-only">
            {MANAGE_PAYMENT_METHODS_DENIED}
          </span>
        </span>
      </Tooltip>
    );
  }
  return (
    <Button className="self-start" onClick={onClick} onPointerEnter={onIntent} onFocus={onIntent}>
      <Plus aria-hidden />
      {label}
    </Button>
  );
}

function PaymentMethodsSkeleton() {
  return (
    <LoadingRegion label="Loading payment methods" className="divide-y rounded-md border">
      {[0, 1].map((row) => (
        <div key={row} className="flex items-center gap-3 px-4 py-3.5">
          <Skeleton className="h-7 w-10" />
          <div className="flex-1 space-y-1.5">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-24" />
          </div>
          <Skeleton className="size-8" />
        </div>
      ))}
    </LoadingRegion>
  );
}
