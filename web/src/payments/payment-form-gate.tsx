import type { ReactNode } from 'react';
import { ErrorState } from '../components/error-state';
import { LoadingRegion, Skeleton } from '../components/ui/skeleton';
import type { PaymentPort } from './payment-port';
import { usePaymentPort } from './payments-provider';

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
