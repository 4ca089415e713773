import { useState } from 'react';
import {
  backupCardRefusal,
  cardBrandName,
  DEFAULT_CARD_DELETE_MESSAGE,
  type PaymentMethod,
} from '@meterline/domain';
import { LifeBuoy, Loader2, MoreHorizontal, Star, Trash2 } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { toast } from '../../../lib/toast';
import { useFocusFirstItem, type IntentProps } from '../../../components/ui/on-intent';
import { Button } from '../../../components/ui/button';
import { useBackupPaymentMethodMutation } from '../../../data/backup-payment-method-mutation';
import { useDefaultPaymentMethodMutation } from '../../../data/default-payment-method-mutation';
import { useDeletePaymentMethodMutation } from '../../../data/delete-payment-method-mutation';
import { useRemoveBackupPaymentMethodMutation } from '../../../data/remove-backup-payment-method-mutation';
import { menuContent, menuItem } from '../../../layout/menu-styles';
import { Dialog } from '../../../payments/ui/dialog';

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** What the backup item of the menu does, in one short line. */
function backupHint(
  method: PaymentMethod,
  refusal: string | null,
  hasOtherBackup: boolean,
): string {
  if (refusal) return refusal;
  if (method.is_backup) return 'The card stays; only the default card will be charged';
  if (hasOtherBackup) return 'Replaces the current backup card';
  return 'Charged once if the default card is declined';
}

/** What a card's menu needs besides the intent (components/ui/on-intent). */
export interface CardMenuProps {
  slug: string;
  method: PaymentMethod;
  deletable: boolean;
  /** Another card of the organization is the backup: marking this one moves the mark. */
  hasOtherBackup: boolean;
}

/** A card's menu (default, backup, delete) and its delete confirmation, loaded on intent. */
export function CardMenu({
  slug,
  method,
  deletable,
  hasOtherBackup,
  defaultOpen,
  openedByKeyboard,
  triggerRef,
}: CardMenuProps & IntentProps) {
  const focusFirstItem = useFocusFirstItem(openedByKeyboard);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const makeDefault = useDefaultPaymentMethodMutation(slug);
  const makeBackup = useBackupPaymentMethodMutation(slug);
  const removeBackup = useRemoveBackupPaymentMethodMutation(slug);
  const { last4 } = method.card;
  const busy = makeDefault.isPending || makeBackup.isPending || removeBackup.isPending;
  const backupRefusal = backupCardRefusal(method);

  const onMakeDefault = () => {
    makeDefault.mutate(method.id, {
      onSuccess: () =>
        toast.success(`Successfully changed payment method to the card ending with ${last4}`),
      onError: (error) =>
        toast.error(`Failed to mark payment method as default: ${messageOf(error)}`),
    });
  };

  const onToggleBackup = () => {
    if (method.is_backup) {
      removeBackup.mutate(undefined, {
        onSuccess: () =>
          toast.success(`The card ending with ${last4} is no longer the backup card`),
        onError: (error) => toast.error(`Failed to remove the backup card: ${messageOf(error)}`),
      });
      return;
    }
    makeBackup.mutate(method.id, {
      onSuccess: () => toast.success(`The card ending with ${last4} is now the backup card`),
      onError: (error) => toast.error(`Failed to set the backup card: ${messageOf(error)}`),
    });
  };

  return (
    <>
      <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
        <DropdownMenu.Trigger asChild disabled={busy} ref={triggerRef}>
          <Button
            variant="ghost"
            size="icon"
            aria-label={`Manage card ending with ${last4}`}
            aria-busy={busy || undefined}
          >
            {busy ? (
              <Loader2 aria-hidden className="animate-spin" />
            ) : (
              <MoreHorizontal aria-hidden />
            )}
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className={`${menuContent} w-64`}
            onFocus={focusFirstItem}
          >
            <DropdownMenu.Item
              className={menuItem}
              disabled={method.is_default}
              onSelect={onMakeDefault}
            >
              <Star aria-hidden className="text-muted-foreground" />
              {method.is_default ? 'Default card' : 'Make default'}
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className={`${menuItem} items-start`}
              disabled={backupRefusal !== null}
              onSelect={onToggleBackup}
            >
              <LifeBuoy aria-hidden className="mt-0.5 text-muted-foreground" />
              <span className="min-w-0">
                <span className="block">
                  {method.is_backup ? 'Remove backup' : 'Use as backup'}
                </span>
                <span className="block text-xs text-muted-foreground">
                  {backupHint(method, backupRefusal, hasOtherBackup)}
                </span>
              </span>
            </DropdownMenu.Item>
            <DropdownMenu.Item
              className={`${menuItem} items-start`}
              disabled={!deletable}
              onSelect={() => setConfirmingDelete(true)}
            >
              <Trash2 aria-hidden className="mt-0.5 text-destructive" />
              <span className="min-w-0">
                <span className="block text-destructive">Delete</span>
                {deletable ? null : (
                  <span className="block text-xs text-muted-foreground">
                    {DEFAULT_CARD_DELETE_MESSAGE}. Make another card the default first.
                  </span>
                )}
              </span>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <DeleteCardDialog
        slug={slug}
        method={method}
        open={confirmingDelete}
        onOpenChange={setConfirmingDelete}
      />
    </>
  );
}

function DeleteCardDialog({
  slug,
  method,
  open,
  onOpenChange,
}: {
  slug: string;
  method: PaymentMethod;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const remove = useDeletePaymentMethodMutation(slug);
  const { last4 } = method.card;
  const brand = cardBrandName(method.card.brand);

  const onDelete = () => {
    remove.mutate(method.id, {
      onSuccess: () => {
        toast.success(`Successfully removed payment method ending with ${last4}`);
        onOpenChange(false);
      },
      onError: (error) => {
        toast.error(`Failed to delete payment method: ${messageOf(error)}`);
        onOpenChange(false);
      },
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      dismissible={!remove.isPending}
      size="sm"
      title={`Delete the ${brand} ending in ${last4}?`}
      description="It will no longer be charged for this organization's invoices or top-ups."
      footer={
        <>
          <Button disabled={remove.isPending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button variant="destructive" disabled={remove.isPending} onClick={onDelete}>
            {remove.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
            Delete card
          </Button>
        </>
      }
    >
      <p className="text-muted-foreground">
        You can add it again later. Invoices already paid with it are not affected.
      </p>
    </Dialog>
  );
}
