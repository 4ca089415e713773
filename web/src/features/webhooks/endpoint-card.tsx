import { useId, useState } from 'react';
import { formatInvoiceDateHour, type WebhookEndpoint } from '@meterline/domain';
import { ChevronDown, KeyRound, Loader2, Send, Trash2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import {
  useDeleteWebhookMutation,
  useRotateWebhookSecretMutation,
  useTestWebhookMutation,
  useUpdateWebhookMutation,
} from '../../data/webhook-mutations';
import { cn } from '../../lib/cn';
import { Dialog } from '../../payments/ui/dialog';
import { SwitchField } from '../../payments/ui/checkbox-field';
import { DELIVERY_STATUS, DeliveriesList } from './deliveries-list';
import { SigningSecret } from './signing-secret';

function DeleteDialog({
  slug,
  endpoint,
  open,
  onOpenChange,
  onDeleted,
}: {
  slug: string;
  endpoint: WebhookEndpoint;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onDeleted: () => void;
}) {
  const remove = useDeleteWebhookMutation(slug);
  // mutateAsync: the list refetched on success drops this card (and this dialog) before the
  // callbacks of `mutate` would run, and those of an unmounted component never do.
  const onDelete = () =>
    remove.mutateAsync(endpoint.id).then(
      () => {
        toast.success('Webhook endpoint deleted');
        onOpenChange(false);
        onDeleted();
      },
      (error: Error) => toast.error(`Failed to delete the endpoint: ${error.message}`),
    );
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      dismissible={!remove.isPending}
      size="sm"
      title="Delete this webhook endpoint?"
      description="No more events are sent to it, and its delivery log is deleted."
      footer={
        <>
          <Button disabled={remove.isPending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={remove.isPending} onClick={() => void onDelete()}>
            {remove.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
            Delete endpoint
          </Button>
        </>
      }
    >
      <p className="break-all text-muted-foreground">{endpoint.url}</p>
    </Dialog>
  );
}

function RotateDialog({
  slug,
  endpoint,
  open,
  onOpenChange,
}: {
  slug: string;
  endpoint: WebhookEndpoint;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const rotate = useRotateWebhookSecretMutation(slug);
  const change = (next: boolean) => {
    if (!next) rotate.reset();
    onOpenChange(next);
  };
  const secret = rotate.data?.secret;
  return (
    <Dialog
      open={open}
      onOpenChange={change}
      dismissible={!rotate.isPending}
      title={secret ? 'New signing secret' : 'Rotate the signing secret?'}
      description={
        secret
          ? undefined
          : 'Deliveries are signed with both secrets for 24 hours, then with the new one only: time to give your receiver the new one.'
      }
      footer={
        secret ? (
          <Button variant="primary" onClick={() => change(false)}>
            Done
          </Button>
        ) : (
          <>
            <Button disabled={rotate.isPending} onClick={() => change(false)}>
              Cancel
            </Button>
            <Button
              variant="primary"
              disabled={rotate.isPending}
              onClick={() =>
                rotate.mutate(endpoint.id, {
                  onError: (error) => toast.error(`Failed to rotate the secret: ${error.message}`),
                })
              }
            >
              {rotate.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
              Rotate secret
            </Button>
          </>
        )
      }
    >
      {secret ? (
        <SigningSecret secret={secret} />
      ) : (
        <p className="break-all text-muted-foreground">{endpoint.url}</p>
      )}
    </Dialog>
  );
}

/** One endpoint: its URL, events and state, its actions, and its deliveries on demand. */
export function EndpointCard({
  slug,
  endpoint,
  onDeleted,
}: {
  slug: string;
  endpoint: WebhookEndpoint;
  /** The card's opener of the delete dialog goes with it: the page says where focus goes instead. */
  onDeleted: () => void;
}) {
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [rotating, setRotating] = useState(false);
  // When the card was first shown: a replaced secret's notice is for the 24 hours it still signs.
  const [shownAt] = useState(() => Date.now());
  const update = useUpdateWebhookMutation(slug);
  const test = useTestWebhookMutation(slug);
  const deliveriesId = useId();
  const titleId = useId();
  const last = endpoint.last_delivery;

  const onToggle = (enabled: boolean) =>
    update.mutate(
      { id: endpoint.id, enabled },
      {
        onSuccess: () => toast.success(enabled ? 'Endpoint enabled' : 'Endpoint disabled'),
        onError: (error) => toast.error(`Failed to update the endpoint: ${error.message}`),
      },
    );
  const onTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: () => {
        toast.success('Test event queued');
        setShowDeliveries(true);
      },
      onError: (error) => toast.error(`Failed to send a test event: ${error.message}`),
    });

  return (
    <Card className="p-5" aria-labelledby={titleId} role="group">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <h2 id={titleId} className="font-mono text-sm font-medium break-all">
            {endpoint.url}
          </h2>
          {endpoint.description ? (
            <p className="text-muted-foreground">{endpoint.description}</p>
          ) : null}
        </div>
        <SwitchField
          label={endpoint.enabled ? 'Enabled' : 'Disabled'}
          aria-label={`Enabled: ${endpoint.url}`}
          checked={endpoint.enabled}
          disabled={update.isPending}
          onChange={(e) => onToggle(e.target.checked)}
        />
      </div>
      {endpoint.disabled_reason === 'failing' ? (
        <p className="mt-2 text-sm text-destructive">
          Disabled after 3 days of failed deliveries. Fix the receiver, enable it and resend what it
          missed.
        </p>
      ) : null}
      {endpoint.previous_secret_expires_at !== null &&
      endpoint.previous_secret_expires_at * 1000 > shownAt ? (
        <p className="mt-2 text-sm text-muted-foreground">
          The previous signing secret stays valid until{' '}
          {formatInvoiceDateHour(endpoint.previous_secret_expires_at)}.
        </p>
      ) : null}
      <ul className="mt-3 flex flex-wrap gap-1.5" aria-label="Events">
        {endpoint.events.map((type) => (
          <li key={type}>
            <Badge className="font-mono">{type}</Badge>
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-muted-foreground">
        Last delivery:{' '}
        {last ? (
          <>
            <Badge tone={DELIVERY_STATUS[last.status].tone}>
              {DELIVERY_STATUS[last.status].label}
            </Badge>{' '}
            {last.response_status === null ? null : `HTTP ${last.response_status} · `}
            {formatInvoiceDateHour(last.at)}
          </>
        ) : (
          'none yet'
        )}
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" disabled={!endpoint.enabled || test.isPending} onClick={onTest}>
          {test.isPending ? <Loader2 aria-hidden className="animate-spin" /> : <Send aria-hidden />}
          Send test event
        </Button>
        <Button
          size="sm"
          aria-expanded={showDeliveries}
          aria-controls={deliveriesId}
          onClick={() => setShowDeliveries((shown) => !shown)}
        >
          <ChevronDown
            aria-hidden
            className={cn('transition-transform', showDeliveries && 'rotate-180')}
          />
          Deliveries
        </Button>
        <Button size="sm" onClick={() => setRotating(true)}>
          <KeyRound aria-hidden />
          Rotate secret
        </Button>
        <Button size="sm" variant="ghost" onClick={() => setDeleting(true)}>
          <Trash2 aria-hidden className="text-destructive" />
          Delete
        </Button>
      </div>
      <div id={deliveriesId} hidden={!showDeliveries} className="mt-4 border-t">
        {showDeliveries ? (
          <DeliveriesList slug={slug} endpointId={endpoint.id} canResend={endpoint.enabled} />
        ) : null}
      </div>
      <DeleteDialog
        slug={slug}
        endpoint={endpoint}
        open={deleting}
        onOpenChange={setDeleting}
        onDeleted={onDeleted}
      />
      <RotateDialog slug={slug} endpoint={endpoint} open={rotating} onOpenChange={setRotating} />
    </Card>
  );
}
