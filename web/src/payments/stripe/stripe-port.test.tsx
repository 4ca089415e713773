import { act, render, screen, waitFor } from '@testing-library/react';
import type { Stripe } from '@stripe/stripe-js';
import { describe, expect, it } from 'vitest';
import { useCardEntry } from '../card-entry-context';
import { CardError, type CardEntry } from '../payment-port';
import { stripePortOf } from './stripe-port';

type Listener = (payload: unknown) => void;

/**
 * A stand-in for Stripe.js (its script cannot load here): the card Element and the calls the
 * adapter makes, answering what the test queues and noting what it was asked.
 */
function standInStripe() {
  const listeners = new Map<string, Listener>();
  const card = {
    mount: () => undefined,
    destroy: () => undefined,
    update: () => undefined,
    focus: () => undefined,
    on(event: string, listener: Listener) {
      listeners.set(event, listener);
      return card;
    },
    off(event: string) {
      listeners.delete(event);
      return card;
    },
  };
  const elements = {
    create: () => card,
    getElement: () => card,
    update: () => undefined,
  };
  const asked = { createPaymentMethod: [] as unknown[], confirmCardPayment: [] as unknown[] };
  const answers = { createPaymentMethod: [] as unknown[], confirmCardPayment: [] as unknown[] };
  const stripe = {
    elements: () => elements,
    createToken: () => Promise.reject(new Error('not used')),
    confirmCardSetup: () => Promise.reject(new Error('not used')),
    createPaymentMethod(data: unknown) {
      asked.createPaymentMethod.push(data);
      return Promise.resolve(answers.createPaymentMethod.shift());
    },
    confirmCardPayment(clientSecret: string) {
      asked.confirmCardPayment.push(clientSecret);
      return Promise.resolve(answers.confirmCardPayment.shift());
    },
  };
  return {
    stripe: stripe as unknown as Stripe,
    card,
    asked,
    answers,
    /** Whether the card Element is mounted and listened to. */
    mounted: () => listeners.has('change'),
    /** What Stripe's iframe reports as the customer types. */
    type: (state: { complete: boolean; error?: { message: string } }) =>
      act(() => listeners.get('change')?.(state)),
  };
}

/** Renders the adapter's card form and gives the form's `CardEntry`. */
async function renderCardForm({ stripe, mounted }: ReturnType<typeof standInStripe>) {
  const port = stripePortOf(Promise.resolve(stripe));
  const current: { entry: CardEntry | null } = { entry: null };
  function Form() {
    current.entry = useCardEntry();
    return <port.CardFields />;
  }
  render(
    <port.CardScope>
      <Form />
    </port.CardScope>,
  );
  await screen.findByText('Card details');
  await waitFor(() => expect(mounted()).toBe(true));
  const entry = () => {
    if (!current.entry) throw new Error('the card form did not render');
    return current.entry;
  };
  return { port, entry };
}

describe('the Stripe adapter', () => {
  it("tokenizes the card in Stripe's Element with the billing details, and answers its id", async () => {
    const fake = standInStripe();
    const { entry } = await renderCardForm(fake);
    let valid = true;
    act(() => {
      valid = entry().validate();
    });
    expect(valid).toBe(false);
    expect(await screen.findByText('Your card number is incomplete.')).toBeInTheDocument();
    await fake.type({ complete: true });
    expect(entry().validate()).toBe(true);

    fake.answers.createPaymentMethod.push({ paymentMethod: { id: 'pm_typed' } });
    const created = await entry().createPaymentMethod({
      name: 'Ada Lovelace',
      address: { line1: '1 Main St', city: 'London', postal_code: 'N1', country: 'GB' },
    });
    expect(created).toEqual({ paymentMethodId: 'pm_typed' });
    expect(fake.asked.createPaymentMethod).toEqual([
      {
        type: 'card',
        card: fake.card,
        billing_details: {
          name: 'Ada Lovelace',
          address: {
            line1: '1 Main St',
            line2: undefined,
            city: 'London',
            state: undefined,
            postal_code: 'N1',
            country: 'GB',
          },
        },
      },
    ]);
  });

  it("rejects with Stripe's words when it refuses to tokenize the card", async () => {
    const fake = standInStripe();
    const { entry } = await renderCardForm(fake);
    await fake.type({ complete: true });
    fake.answers.createPaymentMethod.push({ error: { message: 'Your card number is invalid.' } });
    const refused = entry().createPaymentMethod();
    await expect(refused).rejects.toBeInstanceOf(CardError);
    await expect(refused).rejects.toThrow('Your card number is invalid.');
  });

  it('confirms a payment by its client secret: succeeded, processing, or the failure in its words', async () => {
    const fake = standInStripe();
    const { port } = await renderCardForm(fake);
    fake.answers.confirmCardPayment.push(
      { paymentIntent: { status: 'succeeded' } },
      { paymentIntent: { status: 'processing' } },
      { error: { message: 'We are unable to authenticate your payment method.' } },
    );
    expect(await port.confirmPayment('pi_1_secret_a')).toBe('succeeded');
    expect(await port.confirmPayment('pi_2_secret_b')).toBe('processing');
    await expect(port.confirmPayment('pi_3_secret_c')).rejects.toThrow(
      new CardError('We are unable to authenticate your payment method.'),
    );
    expect(fake.asked.confirmCardPayment).toEqual([
      'pi_1_secret_a',
      'pi_2_secret_b',
      'pi_3_secret_c',
    ]);
  });
});
