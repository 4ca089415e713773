import type { ReactNode } from 'react';
import type { PaymentMethods } from '@meterline/domain';
import { ErrorState } from '../components/error-state';
import { LoadingRegion, Skeleton } from '../components/ui/skeleton';
import type { PaymentPort } from './payment-port';
import { usePaymentPort } from './payments-provider';
import { usePaymentMethodsQuery } from '../data/payment-methods-query';
import { DialogBody } from './ui/dialog';

/** The card fields' place while the provider loads. */
export function CardFieldsSkeleton() {
  return (
    <LoadingRegion label="Loading the payment form" className="space-y-3">
      <div className="space-y-2">
        <Skeleton className="h-4 w-24" />
        <Skeleton className="h-9 w-full" />
      </div>
      <div className="grid grid-cols-2 gap-3">
        <div className="space-y-2">
          <Skeleton className="h-4 w-14" />
          <Skeleton className="h-9 w-full" />
        </div>
        <div className="space-y-2">
          <Skeleton className="h-4 w-10" />
          <Skeleton className="h-9 w-full" />
        </div>
      </div>
    </LoadingRegion>
  );
}

/** Renders a payment form once the port is ready; a skeleton or the failure until then. */
export function PaymentFormGate({ children }: { children: (port: PaymentPort) => ReactNode }) {
  const state = usePaymentPort();
  if (state.status === 'loading') return <CardFieldsSkeleton />;
  if (state.status === 'error') {
    return (
      <ErrorState
        title="Failed to load the payment form"
        error={state.error}
        onRetry={state.retry}
      />
    );
  }
  return children(state.port);
}

/**
 * Renders a dialog's payment step once the organization's cards are read; the card fields' skeleton
 * while they load, and the failure with a retry when they cannot be.
 */
export function PaymentMethodsGate({
  slug,
  children,
}: {
  slug: string;
  children: (methods: PaymentMethods) => ReactNode;
}) {
  const methods = usePaymentMethodsQuery(slug);
  if (methods.isPending) {
    return (
      <DialogBody>
        <CardFieldsSkeleton />
      </DialogBody>
    );
  }
  if (methods.isError) {
    return (
      <DialogBody>
        <ErrorState
          title="Failed to retrieve payment methods"
          error={methods.error}
          onRetry={() => void methods.refetch()}
        />
      </DialogBody>
    );
  }
  return children(methods.data);
}
