import { createContext, use, useId, useMemo, useState, type ReactNode } from 'react';
import { cardBrandName } from '@meterline/domain';
import { CreditCard, FlaskConical } from 'lucide-react';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { CardEntryContext } from '../card-entry-context';
import { usePresentChallenge } from '../challenge-context';
import { CardError, type CardEntry } from '../payment-port';
import {
  cardBrandOf,
  EMPTY_CARD,
  formatCardNumber,
  formatCvc,
  formatExpiry,
  toSimulatorCard,
  validateCard,
  type CardFieldErrors,
  type CardFieldValues,
} from './card-details';
import {
  confirmSimulatedSetup,
  createSimulatedPaymentMethod,
  type SimulatorCard,
} from './simulator-api';

type Field = keyof CardFieldValues;

interface SimulatorCardState {
  values: CardFieldValues;
  errors: CardFieldErrors;
  change: (field: Field, value: string) => void;
  /** Marks the scope's inputs, so that `read` can move focus to the first wrong one. */
  scopeId: string;
  /** The card to send, or null after showing what is wrong and focusing the first wrong field. */
  read: () => SimulatorCard | null;
}

const SimulatorCardContext = createContext<SimulatorCardState | null>(null);

function useSimulatorCard(): SimulatorCardState {
  const state = use(SimulatorCardContext);
  if (!state) throw new Error('useSimulatorCard is only available inside SimulatorCardScope');
  return state;
}

const FIELDS: Field[] = ['number', 'expiry', 'cvc'];

/**
 * Holds the card typed into `SimulatorCardFields` and gives the form around them the port's
 * `CardEntry`: a setup is confirmed with the simulator, through the challenge when the card asks
 * for one; a card for a one-off payment is tokenized by the simulator.
 */
export function SimulatorCardScope({ children }: { children: ReactNode }) {
  const presentChallenge = usePresentChallenge();
  const [values, setValues] = useState<CardFieldValues>(EMPTY_CARD);
  const [errors, setErrors] = useState<CardFieldErrors>({});
  const scopeId = useId();
  const state = useMemo<SimulatorCardState>(() => {
    // The values of this render: a form that awaits other steps before confirming sends the card
    // it validated at submit.
    const read = () => {
      const found = validateCard(values);
      setErrors(found);
      const first = FIELDS.find((field) => found[field]);
      if (first) {
        document
          .querySelector<HTMLInputElement>(
            `[data-card-scope="${scopeId}"][data-card-field="${first}"]`,
          )
          ?.focus();
        return null;
      }
      return toSimulatorCard(values);
    };
    return {
      values,
      errors,
      scopeId,
      read,
      change: (field, value) => {
        setValues((previous) => ({ ...previous, [field]: value }));
        // A corrected field loses its message; the others keep theirs until the next check.
        setErrors((previous) => (previous[field] ? { ...previous, [field]: undefined } : previous));
      },
    };
  }, [values, errors, scopeId]);

  const read = state.read;
  const entry = useMemo<CardEntry>(
    () => ({
      validate: () => read() !== null,
      async confirmSetup(clientSecret) {
        const card = read();
        if (!card) throw new CardError(Object.values(validateCard(values))[0]);
        const confirmation = await confirmSimulatedSetup(clientSecret, card);
        if (confirmation.status === 'requires_action') {
          await presentChallenge(confirmation.challenge.id);
        }
        return { setupIntentId: confirmation.setup_intent_id };
      },
      async createPaymentMethod() {
        const card = read();
        if (!card) throw new CardError(Object.values(validateCard(values))[0]);
        const { id } = await createSimulatedPaymentMethod(card);
        return { paymentMethodId: id };
      },
    }),
    [read, values, presentChallenge],
  );

  return (
    <SimulatorCardContext value={state}>
      <CardEntryContext value={entry}>{children}</CardEntryContext>
    </SimulatorCardContext>
  );
}

/**
 * What the card provider's embedded fields are in production: "Card number", "Expiry" (MM / YY)
 * and "CVC", formatted as typed, checked as the provider checks them.
 */
export function SimulatorCardFields({ disabled = false }: { disabled?: boolean }) {
  const { values, errors, change, scopeId } = useSimulatorCard();
  const brand = cardBrandOf(values.number);
  return (
    <div className="space-y-3">
      <FormField label="Card number" error={errors.number}>
        <CardNumberInput
          data-card-scope={scopeId}
          brand={brand === 'unknown' ? null : cardBrandName(brand)}
          value={values.number}
          disabled={disabled}
          onChange={(text) => change('number', formatCardNumber(text))}
        />
      </FormField>
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Expiry" error={errors.expiry}>
          <Input
            data-card-scope={scopeId}
            data-card-field="expiry"
            name="cc-exp"
            autoComplete="cc-exp"
            inputMode="numeric"
            placeholder="MM / YY"
            value={values.expiry}
            disabled={disabled}
            onChange={(event) => change('expiry', formatExpiry(event.target.value, values.expiry))}
          />
        </FormField>
        <FormField label="CVC" error={errors.cvc}>
          <Input
            data-card-scope={scopeId}
            data-card-field="cvc"
            name="cc-csc"
            autoComplete="cc-csc"
            inputMode="numeric"
            placeholder="123"
            value={values.cvc}
            disabled={disabled}
            onChange={(event) => change('cvc', formatCvc(event.target.value))}
          />
        </FormField>
      </div>
      <p className="flex items-start gap-1.5 text-xs text-muted-foreground">
        <FlaskConical aria-hidden className="mt-px size-3.5 shrink-0" />
        <span>
          Test mode: the payment simulator accepts test cards only, such as 4242 4242 4242 4242 with
          any future expiry and any CVC.
        </span>
      </p>
    </div>
  );
}

function CardNumberInput({
  brand,
  value,
  disabled,
  onChange,
  ...aria
}: {
  'data-card-scope': string;
  brand: string | null;
  value: string;
  disabled: boolean;
  onChange: (text: string) => void;
  /** Set by the surrounding `FormField`. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}) {
  return (
    <div className="relative">
      <Input
        data-card-field="number"
        name="cc-number"
        autoComplete="cc-number"
        inputMode="numeric"
        placeholder="1234 1234 1234 1234"
        className="pr-28 tabular-nums"
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        {...aria}
      />
      <span
        aria-hidden
        className="pointer-events-none absolute top-1/2 right-3 flex -translate-y-1/2 items-center gap-1.5 text-xs font-medium text-muted-foreground"
      >
        {brand ?? null}
        <CreditCard className="size-4" />
      </span>
    </div>
  );
}
