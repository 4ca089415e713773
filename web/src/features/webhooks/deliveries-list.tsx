import { formatInvoiceDateHour, type WebhookDelivery } from '@meterline/domain';
import { Loader2, RotateCw } from 'lucide-react';
import { toast } from '../../lib/toast';
import { ErrorState } from '../../components/error-state';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { useWebhookDeliveriesQuery } from '../../data/webhook-deliveries-query';
import { useResendWebhookDeliveryMutation } from '../../data/webhook-mutations';

export const DELIVERY_STATUS: Record<
  WebhookDelivery['status'],
  { label: string; tone: BadgeTone }
> = {
  pending: { label: 'Pending', tone: 'neutral' },
  succeeded: { label: 'Succeeded', tone: 'success' },
  failed: { label: 'Failed', tone: 'destructive' },
};

function DeliveryRow({
  slug,
  endpointId,
  delivery,
  canResend,
}: {
  slug: string;
  endpointId: string;
  delivery: WebhookDelivery;
  canResend: boolean;
}) {
  const resend = useResendWebhookDeliveryMutation(slug);
  const last = delivery.attempts[0];
  const status = DELIVERY_STATUS[delivery.status];
  const onResend = () =>
    resend.mutate(
      { endpointId, deliveryId: delivery.id },
      {
        onSuccess: () => toast.success(`Resending ${delivery.event_type}`),
        onError: (error) => toast.error(`Failed to resend: ${error.message}`),
      },
    );
  return (
    <li className="space-y-2 py-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <code className="font-mono text-[13px] font-medium">{delivery.event_type}</code>
        <Badge tone={status.tone}>{status.label}</Badge>
        <span className="text-xs text-muted-foreground">
          {formatInvoiceDateHour(last?.at ?? delivery.created_at)}
        </span>
        <span className="ml-auto">
          <Button
            size="sm"
            variant="ghost"
            disabled={!canResend || resend.isPending}
            onClick={onResend}
            aria-label={`Resend ${delivery.event_type} of ${formatInvoiceDateHour(delivery.created_at)}`}
          >
            {resend.isPending ? (
              <Loader2 aria-hidden className="animate-spin" />
            ) : (
              <RotateCw aria-hidden />
            )}
            Resend
          </Button>
        </span>
      </div>
      {last ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs">
          <dt className="text-muted-foreground">Response</dt>
          <dd>{last.response_status === null ? 'No answer' : `HTTP ${last.response_status}`}</dd>
          <dt className="text-muted-foreground">Duration</dt>
          <dd className="tabular-nums">{last.duration_ms} ms</dd>
          <dt className="text-muted-foreground">Attempts</dt>
          <dd className="tabular-nums">{delivery.attempts.length}</dd>
          {last.error ? (
            <>
              <dt className="text-muted-foreground">Error</dt>
              <dd className="break-words">{last.error}</dd>
            </>
          ) : null}
          {last.response_excerpt ? (
            <>
              <dt className="text-muted-foreground">Body</dt>
              <dd className="min-w-0">
                <pre className="max-h-24 overflow-auto rounded bg-muted px-2 py-1 font-mono break-all whitespace-pre-wrap">
                  {last.response_excerpt}
                </pre>
              </dd>
            </>
          ) : null}
        </dl>
      ) : (
        <p className="text-xs text-muted-foreground">Waiting for its first attempt…</p>
      )}
      {delivery.status === 'pending' && delivery.next_attempt_at && last ? (
        <p className="text-xs text-muted-foreground">
          Next attempt {formatInvoiceDateHour(delivery.next_attempt_at)}
        </p>
      ) : null}
    </li>
  );
}

/** The deliveries of one endpoint, newest first, each with its last attempt and "Resend". */
export function DeliveriesList({
  slug,
  endpointId,
  canResend,
}: {
  slug: string;
  endpointId: string;
  canResend: boolean;
}) {
  const deliveries = useWebhookDeliveriesQuery(slug, endpointId);
  if (deliveries.isPending) {
    return (
      <LoadingRegion label="Loading deliveries" className="space-y-2 py-3">
        <Skeleton className="h-4 w-48" />
        <Skeleton className="h-4 w-full" />
      </LoadingRegion>
    );
  }
  if (deliveries.isError) {
    return (
      <ErrorState
        title="Failed to load deliveries"
        error={deliveries.error}
        onRetry={() => void deliveries.refetch()}
      />
    );
  }
  if (deliveries.data.length === 0) {
    return (
      <p className="py-3 text-sm text-muted-foreground">
        No deliveries yet. Send a test event to try the endpoint.
      </p>
    );
  }
  return (
    <ul className="divide-y" aria-label="Deliveries">
      {deliveries.data.map((delivery) => (
        <DeliveryRow
          key={delivery.id}
          slug={slug}
          endpointId={endpointId}
          delivery={delivery}
          canResend={canResend}
        />
      ))}
    </ul>
  );
}
