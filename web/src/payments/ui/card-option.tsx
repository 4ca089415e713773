import type { ReactNode } from 'react';
import { cardBadges, cardBrandName, type PaymentMethod } from '@meterline/domain';
import { CreditCard } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/cn';

function expiry(method: PaymentMethod): string {
  return `${String(method.card.exp_month).padStart(2, '0')}/${method.card.exp_year}`;
}

/**
 * One saved card as a radio of a card picker: brand, last 4 and expiry, the default marked; an expired
 * card cannot be chosen. `note` adds a line under the expiry (a declined last charge, say).
 */
export function CardOption({
  method,
  name,
  checked,
  onSelect,
  now,
  note,
}: {
  method: PaymentMethod;
  /** The radio group's name. */
  name: string;
  checked: boolean;
  onSelect: (id: string) => void;
  /** Unix seconds: whether the card has expired. */
  now: number;
  note?: ReactNode;
}) {
  const expired = cardBadges(method, now).includes('Expired');
  const brand = cardBrandName(method.card.brand);
  return (
    <label
      className={cn(
        'flex items-center gap-3 px-3 py-2.5 has-[:checked]:bg-muted/60',
        expired ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
      )}
    >
      <input
        type="radio"
        name={name}
        value={method.id}
        checked={checked}
        disabled={expired}
        onChange={() => onSelect(method.id)}
        className="size-4 shrink-0 accent-primary"
      />
      <CreditCard aria-hidden className="size-4 shrink-0 text-muted-foreground" />
      <span className="min-w-0 flex-1">
        <span className="block font-medium">{`${brand} ending in ${method.card.last4}`}</span>
        <span className="block text-xs text-muted-foreground">
          {expired ? `Expired ${expiry(method)}` : `Expires ${expiry(method)}`}
        </span>
        {note}
      </span>
      {method.is_default ? <Badge>Default</Badge> : null}
    </label>
  );
}
