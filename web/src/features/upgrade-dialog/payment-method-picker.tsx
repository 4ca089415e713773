import { useId } from 'react';
import type { PaymentMethod } from '@meterline/domain';
import { Plus } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { useNow } from '../../lib/use-now';
import { CardOption } from '../../payments/ui/card-option';

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
          {methods.map((method) => (
            <CardOption
              key={method.id}
              method={method}
              name={name}
              checked={selected === method.id}
              onSelect={onSelect}
              now={now}
            />
          ))}
        </div>
      )}
      <Button size="sm" variant="ghost" className="-ml-3" onClick={onAddCard}>
        <Plus aria-hidden />
        Add new card
      </Button>
    </fieldset>
  );
}
