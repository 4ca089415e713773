import { useRef, useState, type FormEvent } from 'react';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  webhookEndpointCreateSchema,
  type WebhookEventType,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Notice } from '../../components/ui/notice';
import { useCreateWebhookMutation } from '../../data/webhook-mutations';
import { CheckboxField } from '../../payments/ui/checkbox-field';
import { Dialog, DialogBody, DialogFooter } from '../../payments/ui/dialog';
import { SigningSecret } from './signing-secret';

type Errors = Partial<Record<'url' | 'events' | 'description', string>>;

/** "Add endpoint": a URL, the events, an optional description; then the signing secret, once. */
/** The form's names for the fields the shared schema's messages name by their API key. */
const FIELD_LABELS: Record<keyof Errors, string> = {
  url: 'Endpoint URL',
  events: 'Events to send',
  description: 'Description',
};

/**
 * The API's message ("url is required") as the form says it: starting with a capital and naming the
 * field by its label ("Endpoint URL is required").
 */
function formMessage(field: keyof Errors, message: string): string {
  const label = FIELD_LABELS[field];
  return message.startsWith(`${field} `) ? `${label}${message.slice(field.length)}` : message;
}

export function AddEndpointDialog({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateWebhookMutation(slug);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [secret, setSecret] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const change = (next: boolean) => {
    if (!next) {
      // Closed: the next opening starts empty, and the secret is gone for good.
      setUrl('');
      setDescription('');
      setEvents([]);
      setErrors({});
      setSecret(null);
      create.reset();
    }
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = webhookEndpointCreateSchema.safeParse({
      url,
      events,
      ...(description.trim() ? { description: description.trim() } : {}),
    });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        found[field] ??= formMessage(field, issue.message);
      }
      setErrors(found);
      const first = (['url', 'events', 'description'] as const).find((field) => found[field]);
      form.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    create.mutate(parsed.data, { onSuccess: (answer) => setSecret(answer.secret) });
  };

  const toggle = (type: WebhookEventType, on: boolean) => {
    setErrors(({ events: _events, ...rest }) => rest);
    setEvents((current) =>
      on
        ? WEBHOOK_EVENT_TYPES.filter((t) => t === type || current.includes(t))
        : current.filter((t) => t !== type),
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={change}
      dismissible={!create.isPending}
      title={secret ? 'Endpoint added' : 'Add a webhook endpoint'}
      description={
        secret
          ? undefined
          : 'Meterline posts the events you choose to this URL, signed with a secret.'
      }
    >
      {secret ? (
        <>
          <DialogBody>
            <SigningSecret secret={secret} />
          </DialogBody>
          <DialogFooter>
            <Button variant="primary" onClick={() => change(false)}>
              Done
            </Button>
          </DialogFooter>
        </>
      ) : (
        <form ref={form} noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col">
          <DialogBody className="space-y-5">
            <FormField
              label="Endpoint URL"
              error={errors.url}
              hint="An https:// address (http:// and private addresses work outside production)."
            >
              <Input
                data-field="url"
                type="url"
                inputMode="url"
                autoComplete="off"
                placeholder="https://example.com/meterline/webhooks"
                value={url}
                onChange={(e) => {
                  setUrl(e.target.value);
                  setErrors(({ url: _url, ...rest }) => rest);
                }}
              />
            </FormField>
            <FormField label="Description" optional error={errors.description}>
              <Input
                data-field="description"
                value={description}
                maxLength={200}
                onChange={(e) => setDescription(e.target.value)}
              />
            </FormField>
            <fieldset
              className="space-y-3"
              aria-describedby={errors.events ? 'webhook-events-error' : undefined}
            >
              <legend className="mb-3 text-sm font-medium">Events to send</legend>
              {WEBHOOK_EVENT_TYPES.map((type, index) => (
                <CheckboxField
                  key={type}
                  data-field={index === 0 ? 'events' : undefined}
                  label={<code className="font-mono text-[13px]">{type}</code>}
                  hint={WEBHOOK_EVENT_LABELS[type]}
                  checked={events.includes(type)}
                  onChange={(e) => toggle(type, e.target.checked)}
                />
              ))}
              <p
                id="webhook-events-error"
                aria-live="polite"
                className="text-xs text-destructive empty:hidden"
              >
                {errors.events ?? ''}
              </p>
            </fieldset>
            {create.isError ? (
              <Notice tone="destructive" title="Failed to add the endpoint" role="alert">
                {create.error.message}
              </Notice>
            ) : null}
          </DialogBody>
          <DialogFooter>
            <Button type="button" disabled={create.isPending} onClick={() => change(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
              Add endpoint
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
