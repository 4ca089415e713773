import { useRef, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ACCESS_TOKEN_NAME_MAX,
  accessTokenCreateSchema,
  type AccessTokenCreate,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { z } from 'zod/mini';
import { SecretReveal } from '../../components/secret-reveal';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import { Notice } from '../../components/ui/notice';
import { useCreateAccessTokenMutation } from '../../data/access-token-mutations';
import { Dialog, DialogBody, DialogFooter, useFocusFirstField } from '../../payments/ui/dialog';

const EXPIRY_OPTIONS = [
  { value: '7', label: '7 days', days: 7 },
  { value: '30', label: '30 days', days: 30 },
  { value: '90', label: '90 days', days: 90 },
  { value: 'never', label: 'No expiry', days: null },
] as const;

/** The form's fields (the expiry as its select's value), checked by the API's own schema. */
const createTokenFormSchema = z.pipe(
  z.object({
    name: z.string(),
    expires: z.enum(['7', '30', '90', 'never']),
  }),
  z.transform(({ name, expires }, context) => {
    const days = EXPIRY_OPTIONS.find((option) => option.value === expires)?.days ?? null;
    const parsed = accessTokenCreateSchema.safeParse({ name, expires_in_days: days });
    if (parsed.success) return parsed.data as AccessTokenCreate;
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] === 'name' ? 'name' : 'expires';
      context.issues.push({
        code: 'custom',
        message: issue.message,
        path: [field],
        input: { name, expires },
      });
    }
    return z.NEVER;
  }),
);
type CreateTokenFormInput = z.input<typeof createTokenFormSchema>;

function CreateTokenForm({
  create,
  onCreated,
  onCancel,
}: {
  create: ReturnType<typeof useCreateAccessTokenMutation>;
  onCreated: (secret: string) => void;
  onCancel: () => void;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstField(formRef);
  const form = useForm<CreateTokenFormInput, unknown, AccessTokenCreate>({
    resolver: zodResolver(createTokenFormSchema),
    defaultValues: { name: '', expires: '30' },
  });
  const { errors } = form.formState;
  const onValid = (body: AccessTokenCreate) =>
    create.mutate(body, { onSuccess: (answer) => onCreated(answer.secret) });
  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void form.handleSubmit(onValid)(event)}
      className="flex min-h-0 flex-1 flex-col"
    >
      <DialogBody className="space-y-5">
        <FormField
          label="Name"
          error={errors.name?.message}
          hint="What uses it, so you know which to revoke: “Finance spreadsheet”."
        >
          <Input autoComplete="off" maxLength={ACCESS_TOKEN_NAME_MAX} {...form.register('name')} />
        </FormField>
        <FormField label="Expires after" error={errors.expires?.message}>
          <NativeSelect {...form.register('expires')}>
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
              · invoices and their PDFs, the upcoming invoice, subscription, usage, billing address,
              tax ID and cards
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
        <Button type="button" disabled={create.isPending} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" disabled={create.isPending}>
          {create.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
          Create token
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * "Create token": a name and an expiry; then the token, shown this once. The page mounts it anew at each
 * opening (a new `key`), so the form starts empty and the last token is gone.
 */
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
  const [secret, setSecret] = useState<string | null>(null);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
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
        <CreateTokenForm
          create={create}
          onCreated={setSecret}
          onCancel={() => onOpenChange(false)}
        />
      )}
    </Dialog>
  );
}
