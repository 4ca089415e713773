import { useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  billingDataChanges,
  billingDataFormValues,
  customerUpdateFromForm,
  hasBillingDataChanges,
  type CustomerProfile,
  type PaymentMethod,
  type TaxId,
} from '@meterline/domain';
import { Info, Loader2 } from 'lucide-react';
import { useForm, useWatch } from 'react-hook-form';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { useCustomerQuery } from '../../data/customer-query';
import { useTaxIdQuery } from '../../data/tax-id-query';
import { useCaptcha } from '../captcha/captcha';
import { useCardEntry } from '../card-entry-context';
import { CardFieldsSkeleton, PaymentFormGate } from '../payment-form-gate';
import type { PaymentPort } from '../payment-port';
import { PaymentsProvider } from '../payments-provider';
import { CheckboxField } from '../ui/checkbox-field';
import { Dialog, DialogBody, DialogFooter, useFocusFirstField } from '../ui/dialog';
import {
  addCardFormSchemaFor,
  billingValuesToApply,
  type AddCardFormValues,
} from './add-card-form-schema';
import { CardBillingFields } from './card-billing-fields';
import { useAddCard } from './use-add-card';

export const CARD_HINT = 'Please ensure CVC and postal codes match what’s on file for your card.';

/**
 * "Add new card": the payment port's card fields, "Set as default" and "Update billing address and
 * tax ID" (both on by default), then the flow of `useAddCard`. The dialog cannot be closed while the
 * card is being saved.
 */
export function AddCardDialog({
  slug,
  open,
  onOpenChange,
  canUpdateBillingAddress,
}: {
  slug: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  canUpdateBillingAddress: boolean;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      dismissible={!busy}
      title="Add new card"
      description="The card is saved with the payment provider and can pay this organization's invoices and top-ups."
    >
      <PaymentsProvider>
        <PaymentFormGate>
          {(port) => (
            <AddCardFlow
              slug={slug}
              port={port}
              canUpdateBillingAddress={canUpdateBillingAddress}
              onBusyChange={setBusy}
              onAdded={() => onOpenChange(false)}
              onCancel={() => onOpenChange(false)}
            />
          )}
        </PaymentFormGate>
      </PaymentsProvider>
    </Dialog>
  );
}

/**
 * The add-card form inside a dialog that already holds the payment port: the standalone dialog above,
 * and the upgrade dialog, which adds a card inline and then selects it (`onAdded` gets the saved card).
 */
export function AddCardFlow({
  slug,
  port,
  canUpdateBillingAddress,
  onBusyChange,
  onAdded,
  onCancel,
  aside,
  asideLabel,
}: {
  slug: string;
  port: PaymentPort;
  canUpdateBillingAddress: boolean;
  onBusyChange: (busy: boolean) => void;
  onAdded: (method: PaymentMethod) => void;
  onCancel: () => void;
  /** Shown beside the card form (above it on a narrow screen): what the card is added to pay. */
  aside?: ReactNode;
  asideLabel?: string;
}) {
  const side = aside ? { content: aside, label: asideLabel ?? 'Summary' } : null;
  return (
    <port.CardScope>
      <BillingDataLoader slug={slug} enabled={canUpdateBillingAddress} aside={side}>
        {(billing) => (
          <AddCardForm
            slug={slug}
            port={port}
            billing={billing}
            aside={side}
            onBusyChange={onBusyChange}
            onDone={onAdded}
            onCancel={onCancel}
          />
        )}
      </BillingDataLoader>
    </port.CardScope>
  );
}

interface LoadedBilling {
  profile: CustomerProfile;
  taxId: TaxId | null;
}

/**
 * The saved address and tax ID the option starts from. Without the permission to change them, or
 * when they cannot be loaded, the option is not offered (the card can still be added).
 */
interface Aside {
  content: ReactNode;
  label: string;
}

/** The card form with what it pays for beside it: two columns when there is room, else one. */
function WithAside({ aside, children }: { aside: Aside | null; children: ReactNode }) {
  if (!aside) return <>{children}</>;
  return (
    <div className="grid gap-6 md:grid-cols-[minmax(0,1fr)_minmax(0,17rem)]">
      <aside
        aria-label={aside.label}
        className="min-w-0 rounded-md border bg-muted/40 p-4 text-sm md:order-last"
      >
        {aside.content}
      </aside>
      <div className="min-w-0">{children}</div>
    </div>
  );
}

function BillingDataLoader({
  slug,
  enabled,
  aside,
  children,
}: {
  slug: string;
  enabled: boolean;
  aside: Aside | null;
  children: (billing: LoadedBilling | null | 'unavailable') => ReactNode;
}) {
  const customer = useCustomerQuery(slug, { enabled });
  const taxId = useTaxIdQuery(slug, { enabled });
  if (!enabled) return children(null);
  if (customer.isError || taxId.isError) return children('unavailable');
  if (customer.isPending || taxId.isPending) {
    return (
      <DialogBody>
        <WithAside aside={aside}>
          <CardFieldsSkeleton />
        </WithAside>
      </DialogBody>
    );
  }
  return children({ profile: customer.data, taxId: taxId.data });
}

function AddCardForm({
  slug,
  port,
  billing,
  aside,
  onBusyChange,
  onDone,
  onCancel,
}: {
  slug: string;
  port: PaymentPort;
  billing: LoadedBilling | null | 'unavailable';
  aside: Aside | null;
  onBusyChange: (busy: boolean) => void;
  onDone: (method: PaymentMethod) => void;
  onCancel: () => void;
}) {
  const entry = useCardEntry();
  const captcha = useCaptcha();
  const addCard = useAddCard(slug);
  const offerBilling = billing !== null && billing !== 'unavailable';
  const loaded = useMemo(
    () =>
      billingDataFormValues(
        offerBilling ? billing.profile : null,
        offerBilling ? billing.taxId : null,
      ),
    [billing, offerBilling],
  );
  const form = useForm<AddCardFormValues>({
    resolver: zodResolver(addCardFormSchemaFor(loaded)),
    defaultValues: {
      setAsDefault: true,
      updateBilling: offerBilling,
      business: Boolean(loaded.tax_id_type),
      billing: loaded,
    },
  });
  const updateBilling = useWatch({ control: form.control, name: 'updateBilling' });
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusFirstField(formRef);

  const setWorking = (working: boolean) => {
    setBusy(working);
    onBusyChange(working);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setFailure(null);
    // Everything is checked before anything is sent: the card first, then the address.
    const cardValid = entry.validate();
    const formValid = await form.trigger(undefined, { shouldFocus: cardValid });
    if (!cardValid || !formValid) return;

    const values = form.getValues();
    const applied = billingValuesToApply(values, loaded);
    const changes =
      offerBilling && values.updateBilling ? billingDataChanges(loaded, applied) : null;
    const address = customerUpdateFromForm(values.updateBilling ? applied : loaded);

    setWorking(true);
    const result = await addCard({
      entry,
      captcha,
      setAsDefault: values.setAsDefault,
      billingChanges: changes && hasBillingDataChanges(changes) ? changes : null,
      billingDetails: { name: address.billing_name, address: address.address },
    });
    setWorking(false);
    if (result.ok) {
      onDone(result.method);
      return;
    }
    setFailure(result.message);
    // The message is announced by the alert; focus goes there so the keyboard continues from it.
    requestAnimationFrame(() => failureRef.current?.focus());
  };

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={(event) => void submit(event)}
      aria-busy={busy || undefined}
      className="flex min-h-0 flex-1 flex-col"
    >
      <DialogBody>
        <WithAside aside={aside}>
          <fieldset disabled={busy} className="min-w-0 space-y-5">
            <legend className="sr-only">Card</legend>
            <div className="space-y-3">
              <port.CardFields disabled={busy} />
              <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
                <Info aria-hidden className="mt-px size-3.5 shrink-0" />
                {CARD_HINT}
              </p>
            </div>

            <div className="space-y-3 border-t pt-4">
              <CheckboxField
                label="Set as default payment method"
                hint="Invoices are charged to the default card."
                {...form.register('setAsDefault')}
              />
              {offerBilling ? (
                <CheckboxField
                  label="Update billing address and tax ID"
                  hint="Use the card's billing details on this organization's invoices."
                  {...form.register('updateBilling')}
                />
              ) : null}
              {billing === 'unavailable' ? (
                <p className="text-xs text-muted-foreground">
                  The billing address could not be loaded; update it in Billing address &amp; tax ID
                  after adding the card.
                </p>
              ) : null}
            </div>

            {offerBilling && updateBilling ? (
              <fieldset className="min-w-0 rounded-md border bg-muted/40 p-4">
                <legend className="px-1 text-sm font-semibold">Billing address and tax ID</legend>
                <CardBillingFields form={form} />
              </fieldset>
            ) : null}
          </fieldset>

          {failure ? (
            <div ref={failureRef} tabIndex={-1} className="mt-5 rounded-md outline-none">
              <Notice tone="destructive" role="alert" title={failure}>
                Nothing was saved. Check the card details or try another card.
              </Notice>
            </div>
          ) : null}
        </WithAside>
      </DialogBody>
      <DialogFooter>
        <Button disabled={busy} onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" variant="primary" aria-disabled={busy || undefined}>
          {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
          {busy ? 'Saving card…' : 'Save card'}
        </Button>
      </DialogFooter>
    </form>
  );
}
