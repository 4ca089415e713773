import { useState } from 'react';
import {
  backupCardRefusal,
  canDeletePaymentMethod,
  cardBadges,
  cardBrandName,
  DEFAULT_CARD_DELETE_MESSAGE,
  lastChargeDeclined,
  type CardBadge,
  type PaymentMethod,
  type PlanId,
} from '@meterline/domain';
import {
  AlertTriangle,
  CreditCard,
  LifeBuoy,
  Loader2,
  MoreHorizontal,
  Star,
  Trash2,
} from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { toast } from '../../../lib/toast';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useBackupPaymentMethodMutation } from '../../../data/backup-payment-method-mutation';
import { useDefaultPaymentMethodMutation } from '../../../data/default-payment-method-mutation';
import { useDeletePaymentMethodMutation } from '../../../data/delete-payment-method-mutation';
import { useRemoveBackupPaymentMethodMutation } from '../../../data/remove-backup-payment-method-mutation';
import { menuContent, menuItem } from '../../../layout/menu-styles';
import { useNow } from '../../../lib/use-now';
import { Dialog } from '../../../payments/ui/dialog';

const BADGE_TONES: Record<CardBadge, BadgeTone> = {
  'Expiring soon': 'warning',
  Expired: 'destructive',
  Active: 'success',
  Backup: 'primary',
};

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** "11/2028": the card's expiry as printed on it, with the full year. */
export function formatCardExpiry(card: PaymentMethod['card']): string {
  return `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
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

/** One card: brand, last four, expiry, badges, and (with write permission) its menu. */
export function PaymentMethodRow({
  slug,
  method,
  planId,
  cardCount,
  canWrite,
  hasOtherBackup,
}: {
  slug: string;
  method: PaymentMethod;
  planId: PlanId;
  cardCount: number;
  canWrite: boolean;
  /** Another card of the organization is the backup: marking this one moves the mark. */
  hasOtherBackup: boolean;
}) {
  const now = useNow();
  const { card } = method;
  const brand = cardBrandName(card.brand);
  const badges = cardBadges(method, now);
  const expired = badges.includes('Expired');
  const declined = lastChargeDeclined(method);

  return (
    <li className="flex items-center gap-3 px-4 py-3">
      <div
        aria-hidden
        className="flex h-7 w-10 shrink-0 items-center justify-center rounded border bg-muted text-muted-foreground"
      >
        <CreditCard className="size-4" />
      </div>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-medium">
            {brand} <span aria-hidden>•••• </span>
            <span className="sr-only">ending in </span>
            <span className="tabular-nums">{card.last4}</span>
          </span>
          {badges.map((badge) => (
            <Badge key={badge} tone={BADGE_TONES[badge]}>
              {badge}
            </Badge>
          ))}
        </p>
        <p className="text-xs text-muted-foreground">
          {expired ? 'Expired' : 'Expires'}{' '}
          <span className="tabular-nums">{formatCardExpiry(card)}</span>
          {method.is_default ? ' · Default for invoices' : null}
          {method.is_backup ? ' · Charged if the default card is declined' : null}
        </p>
        {declined ? (
          <p className="mt-1 flex items-start gap-1.5 text-xs text-destructive">
            <AlertTriangle aria-hidden className="mt-px size-3.5 shrink-0" />
            <span>
              <span className="font-medium">{declined.title}</span>
              {declined.message ? `: ${declined.message}` : null}
            </span>
          </p>
        ) : null}
      </div>
      {canWrite ? (
        <CardMenu
          slug={slug}
          method={method}
          deletable={canDeletePaymentMethod(method, { planId, cardCount })}
          hasOtherBackup={hasOtherBackup}
        />
      ) : null}
    </li>
  );
}

function CardMenu({
  slug,
  method,
  deletable,
  hasOtherBackup,
}: {
  slug: string;
  method: PaymentMethod;
  deletable: boolean;
  hasOtherBackup: boolean;
}) {
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
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild disabled={busy}>
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
          <DropdownMenu.Content align="end" sideOffset={4} className={`${menuContent} w-64`}>
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
          <Button
            variant="primary"
            className="bg-destructive hover:bg-destructive/90"
            disabled={remove.isPending}
            onClick={onDelete}
          >
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
