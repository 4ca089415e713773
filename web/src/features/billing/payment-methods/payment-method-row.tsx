import { lazy } from 'react';
import {
  canDeletePaymentMethod,
  cardBadges,
  cardBrandName,
  lastChargeDeclined,
  type CardBadge,
  type PaymentMethod,
  type PlanId,
} from '@meterline/domain';
import { AlertTriangle, CreditCard, MoreHorizontal } from 'lucide-react';
import { OnIntent } from '../../../components/ui/on-intent';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { useNow } from '../../../lib/use-now';

const BADGE_TONES: Record<CardBadge, BadgeTone> = {
  'Expiring soon': 'warning',
  Expired: 'destructive',
  Active: 'success',
  Backup: 'primary',
};

const loadCardMenu = () => import('./card-menu');
const CardMenu = lazy(async () => ({ default: (await loadCardMenu()).CardMenu }));

/** "11/2028": the card's expiry as printed on it, with the full year. */
export function formatCardExpiry(card: PaymentMethod['card']): string {
  return `${String(card.exp_month).padStart(2, '0')}/${card.exp_year}`;
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
        <OnIntent
          load={loadCardMenu}
          standIn={(props) => (
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Manage card ending with ${card.last4}`}
              aria-haspopup="menu"
              aria-expanded={false}
              data-state="closed"
              {...props}
            >
              <MoreHorizontal aria-hidden />
            </Button>
          )}
        >
          {(intent) => (
            <CardMenu
              {...intent}
              slug={slug}
              method={method}
              deletable={canDeletePaymentMethod(method, { planId, cardCount })}
              hasOtherBackup={hasOtherBackup}
            />
          )}
        </OnIntent>
      ) : null}
    </li>
  );
}
