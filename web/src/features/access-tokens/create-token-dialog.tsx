import { useRef, useState, type FormEvent } from 'react';
import {
  ACCESS_TOKEN_NAME_MAX,
  accessTokenCreateSchema,
  type AccessTokenExpiry,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { SecretReveal } from '../../components/secret-reveal';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { Notice } from '../../components/ui/notice';
import { useCreateAccessTokenMutation } from '../../data/access-token-mutations';
import { Dialog, DialogBody, DialogFooter } from '../../payments/ui/dialog';

const EXPIRY_OPTIONS: { value: string; label: string; days: AccessTokenExpiry }[] = [
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: 'never', label: 'No expiry', days: null },
];

type Errors = Partial<Record<'name' | 'expires_in_days', string>>;

/** "Create token": a name and an expiry; then the token, shown this once. */
export function CreateTokenDialog({
  slug,
  open,
  onOpenChange,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateAccessTokenMutation(slug);
  const [name, setName] = useState('');
  const [expiry, setExpiry] = useState('30');
  const [errors, setErrors] = useState<Errors>({});
  const [secret, setSecret] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  // The form starts empty at each opening; the last token is dropped then too.
  const change = (next: boolean) => {
    if (next) {
      setName('');
      setExpiry('30');
      setErrors({});
      setSecret(null);
      create.reset();
    }
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const days = EXPIRY_OPTIONS.find((option) => option.value === expiry)?.days;
    const parsed = accessTokenCreateSchema.safeParse({ name, expires_in_days: days });
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Errors;
        found[field] ??= issue.message;
      }
      setErrors(found);
      const first = (['name', 'expires_in_days'] as const).find((field) => found[field]);
      form.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    create.mutate(parsed.data, { onSuccess: (answer) => setSecret(answer.secret) });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={change}
      dismissible={!create.isPending}
      title={secret ? 'Token created' : 'Create an access token'}
      description={
        secret
          ? undefined
          : "The token reads this organization's billing data through the API. It cannot change anything."
      }
    >
      {secret ? (
        <>
          <DialogBody>
            <SecretReveal secret={secret} label="Access token" title="Copy the token now">
              It is shown only this once: Meterline keeps only a fingerprint of it. Send it as{' '}
              <code className="font-mono text-[13px]">Authorization: Bearer &lt;token&gt;</code>.
            </SecretReveal>
          </DialogBody>
          <DialogFooter>
            <Button variant="primary" onClick={() => onOpenChange(false)}>
              Done
            </Button>
          </DialogFooter>
        </>
      ) : (
        <form ref={form} noValidate onSubmit={submit} className="flex min-h-0 flex-1 flex-col">
          <DialogBody className="space-y-5">
            <FormField
              label="Name"
              error={errors.name}
              hint="What uses it, so you know which to revoke: “Finance spreadsheet”."
            >
              <Input
                data-field="name"
                autoComplete="off"
                value={name}
                maxLength={ACCESS_TOKEN_NAME_MAX}
                onChange={(e) => {
                  setName(e.target.value);
                  setErrors(({ name: _name, ...rest }) => rest);
                }}
              />
            </FormField>
            <FormField label="Expires after" error={errors.expires_in_days}>
              <NativeSelect
                data-field="expires_in_days"
                value={expiry}
                onChange={(e) => setExpiry(e.target.value)}
              >
                {EXPIRY_OPTIONS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <div className="space-y-1.5">
              <p className="text-sm font-medium">Scope</p>
              <p className="text-sm">
                <code className="font-mono text-[13px]">billing:read</code>
                <span className="text-muted-foreground">
                  {' '}
                  · invoices and their PDFs, the upcoming invoice, subscription, usage, billing
                  address, tax ID and cards
                </span>
              </p>
            </div>
            {create.isError ? (
              <Notice tone="destructive" title="Failed to create the token" role="alert">
                {create.error.message}
              </Notice>
            ) : null}
          </DialogBody>
          <DialogFooter>
            <Button type="button" disabled={create.isPending} onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="primary" disabled={create.isPending}>
              {create.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
              Create token
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
