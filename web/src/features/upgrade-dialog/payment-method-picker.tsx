import { useId } from 'react';
import { cardBadges, cardBrandName, type PaymentMethod } from '@meterline/domain';
import { CreditCard, Plus } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { useNow } from '../../lib/use-now';

function expiry(method: PaymentMethod): string {
  return `${String(method.card.exp_month).padStart(2, '0')}/${method.card.exp_year}`;
}

/**
 * The organization's cards as one radio group: brand, last 4 and expiry; the default marked; an expired
 * card cannot be chosen. "Add new card" opens the add-card form in the dialog.
 */
export function PaymentMethodPicker({
  methods,
  selected,
  onSelect,
  onAddCard,
  disabled,
}: {
  methods: readonly PaymentMethod[];
  selected: string | null;
  onSelect: (id: string) => void;
  onAddCard: () => void;
  disabled: boolean;
}) {
  const now = useNow();
  const name = useId();
  return (
    <fieldset className="min-w-0 space-y-2" disabled={disabled}>
      <legend className="mb-2 text-sm font-semibold">Payment method</legend>
      {methods.length === 0 ? (
        <p className="text-muted-foreground">This organization has no card yet.</p>
      ) : (
        <div className="divide-y rounded-md border">
          {methods.map((method) => {
            const expired = cardBadges(method, now).includes('Expired');
            const brand = cardBrandName(method.card.brand);
            return (
              <label
                key={method.id}
                className={cn(
                  'flex cursor-pointer items-center gap-3 px-3 py-2.5 has-[:checked]:bg-muted/60',
                  expired && 'cursor-not-allowed opacity-60',
                )}
              >
                <input
                  type="radio"
                  name={name}
                  value={method.id}
                  checked={selected === method.id}
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
                </span>
                {method.is_default ? <Badge>Default</Badge> : null}
              </label>
            );
          })}
        </div>
      )}
      <Button size="sm" variant="ghost" className="-ml-3" onClick={onAddCard}>
        <Plus aria-hidden />
        Add new card
      </Button>
    </fieldset>
  );
}
