import {
  createContext,
  use,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type RefObject,
} from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { CreatePaymentMethodCardData, Stripe, StripeCardElement } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { cn } from '../../lib/cn';
import { useTheme } from '../../lib/theme';
import { CardEntryContext } from '../card-entry-context';
import { CardError, type BillingDetails, type CardEntry, type PaymentPort } from '../payment-port';

type StripeBillingDetails = NonNullable<CreatePaymentMethodCardData['billing_details']>;

/** Where the provider sends the browser back after a redirect-based authentication (spec §2). */
export const CARD_SETUP_RETURN_PATH = '/org/_/billing';

const CARD_INCOMPLETE = 'Your card number is incomplete.';

/** The port's billing details as Stripe.js takes them (no nulls, nothing empty). */
function billingDetailsOf(billing: BillingDetails | undefined): StripeBillingDetails {
  const address = billing?.address;
  return {
    name: billing?.name || undefined,
    address: address
      ? {
          line1: address.line1,
          line2: address.line2 ?? undefined,
          city: address.city,
          state: address.state ?? undefined,
          postal_code: address.postal_code,
          country: address.country,
        }
      : undefined,
  };
}

interface CardFieldState {
  complete: boolean;
  error: string | null;
}

interface StripeCardState {
  field: CardFieldState;
  setField: (state: CardFieldState) => void;
  elementRef: RefObject<StripeCardElement | null>;
}

const StripeCardContext = createContext<StripeCardState | null>(null);

function useStripeCard(): StripeCardState {
  const state = use(StripeCardContext);
  if (!state) throw new Error('The Stripe card fields are only available inside its CardScope');
  return state;
}

/** Gives the form the port's `CardEntry` on top of Stripe's Elements. */
function StripeCardEntry({ children }: { children: ReactNode }) {
  const stripe = useStripe();
  const elements = useElements();
  const [field, setField] = useState<CardFieldState>({ complete: false, error: null });
  const elementRef = useRef<StripeCardElement | null>(null);

  const entry = useMemo<CardEntry>(
    () => ({
      validate() {
        if (field.complete) return true;
        setField({ complete: false, error: field.error ?? CARD_INCOMPLETE });
        elementRef.current?.focus();
        return false;
      },
      async confirmSetup(clientSecret, billing) {
        const card = elements?.getElement(CardElement);
        if (!stripe || !card) throw new CardError(null);
        const { setupIntent, error } = await stripe.confirmCardSetup(clientSecret, {
          payment_method: { card, billing_details: billingDetailsOf(billing) },
          return_url: new URL(CARD_SETUP_RETURN_PATH, window.location.origin).toString(),
        });
        if (error) throw new CardError(error.message);
        if (setupIntent.status !== 'succeeded') throw new CardError(null);
        return { setupIntentId: setupIntent.id };
      },
      async createPaymentMethod(billing) {
        const card = elements?.getElement(CardElement);
        if (!stripe || !card) throw new CardError(null);
        const { paymentMethod, error } = await stripe.createPaymentMethod({
          type: 'card',
          card,
          billing_details: billingDetailsOf(billing),
        });
        if (error) throw new CardError(error.message);
        return { paymentMethodId: paymentMethod.id };
      },
    }),
    [stripe, elements, field],
  );

  const state = useMemo(() => ({ field, setField, elementRef }), [field]);
  return (
    <StripeCardContext value={state}>
      <CardEntryContext value={entry}>{children}</CardEntryContext>
    </StripeCardContext>
  );
}

/**
 * Stripe's card field (number, expiry, CVC and postal code in one iframe). It has no label of its
 * own inside the frame, so the label names the group around it.
 */
function StripeCardFields({ disabled = false }: { disabled?: boolean }) {
  const { field, setField, elementRef } = useStripeCard();
  const { theme } = useTheme();
  const dark = theme === 'dark';
  return (
    <div role="group" aria-labelledby="stripe-card-label" className="space-y-1.5">
      <p id="stripe-card-label" className="text-sm font-medium">
        Card details
      </p>
      <div
        className={cn(
          'rounded-md border bg-card px-3 py-2.5 shadow-card transition-colors focus-within:border-ring focus-within:outline-2 focus-within:outline-ring/30',
          field.error ? 'border-destructive' : 'border-input',
          disabled && 'pointer-events-none opacity-50',
        )}
      >
        <CardElement
          onReady={(card) => {
            elementRef.current = card;
          }}
          onChange={(event) =>
            setField({ complete: event.complete, error: event.error?.message ?? null })
          }
          options={{
            disabled,
            style: {
              base: {
                fontSize: '14px',
                color: dark ? '#ececf1' : '#26272e',
                iconColor: dark ? '#a4a7b4' : '#6b6f7d',
                '::placeholder': { color: dark ? '#80838f' : '#9a9dab' },
              },
              invalid: { color: dark ? '#f28b82' : '#c5372c' },
            },
          }}
        />
      </div>
      <div aria-live="polite" className="text-xs text-destructive empty:hidden">
        {field.error}
      </div>
    </div>
  );
}

/**
 * The Stripe adapter: Stripe.js loads only when the server is configured with Stripe; card details
 * go from Stripe's iframe to Stripe, never through Meterline; 3-D Secure is Stripe's own screen.
 */
export function createStripePort(publishableKey: string): PaymentPort {
  return stripePortOf(loadStripe(publishableKey));
}

/** The adapter over a Stripe.js instance (loading, or a stand-in in tests). */
export function stripePortOf(stripePromise: Promise<Stripe | null>): PaymentPort {
  function StripeCardScope({ children }: { children: ReactNode }) {
    return (
      <Elements stripe={stripePromise}>
        <StripeCardEntry>{children}</StripeCardEntry>
      </Elements>
    );
  }
  return {
    provider: 'stripe',
    CardScope: StripeCardScope,
    CardFields: StripeCardFields,
    async confirmPayment(clientSecret) {
      const stripe = await stripePromise;
      if (!stripe) throw new CardError(null);
      const { paymentIntent, error } = await stripe.confirmCardPayment(clientSecret);
      if (error) throw new CardError(error.message);
      if (paymentIntent.status === 'processing') return 'processing';
      if (paymentIntent.status !== 'succeeded') throw new CardError(null);
      return 'succeeded';
    },
  };
}
