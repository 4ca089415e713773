import type { PaymentEvent } from '../../src/adapters/payment-event.ts';
import {
  ProviderUnavailableError,
  type ChargeRequest,
  type PaymentGateway,
  type PaymentIntentState,
} from '../../src/adapters/payment-gateway.ts';

/** Every call of the payment port that reaches the provider. */
export type PortMethod = Exclude<keyof PaymentGateway, 'provider'>;

/**
 * How a provider call goes wrong:
 * - `error`: the provider answers an error at once and did nothing;
 * - `timeout`: the client gives up after waiting; the provider never did it;
 * - `late`: the provider did it, but its answer comes after the client gave up (lost to the caller);
 *   its webhook, if the call sends one, arrives later.
 */
export type FaultKind = 'error' | 'timeout' | 'late';
export const FAULT_KINDS: readonly FaultKind[] = ['error', 'timeout', 'late'];

/** How long a client waits before it gives up (the card provider's client: three tries of 20 s). */
export const CLIENT_TIMEOUT_SECONDS = 80;

/**
 * The real payment port (the simulator, playing the provider) behind a recording wrapper that can make
 * its n-th call fail in one of the ways above. Only the boundary is touched: what the provider does is
 * the simulator's own doing.
 */
export class ScriptedPort implements PaymentGateway {
  /** The calls made since `reset`, in order. */
  readonly calls: PortMethod[] = [];
  private fault: { index: number; kind: FaultKind } | null = null;
  /** Webhooks the provider owes for calls whose answer was lost, delivered by `lateEvents`. */
  private readonly owed: PaymentEvent[] = [];

  constructor(
    private readonly inner: PaymentGateway,
    /** Moves the clock the time a client waits before it gives up. */
    private readonly wait: (seconds: number) => void,
  ) {}

  get provider() {
    return this.inner.provider;
  }

  /** Starts counting calls afresh; the `index`-th call from now goes wrong as `kind` says. */
  arm(fault: { index: number; kind: FaultKind } | null): void {
    this.calls.length = 0;
    this.fault = fault;
  }

  /** The webhooks the provider sends late for what it did while its answer was lost. */
  lateEvents(): PaymentEvent[] {
    return this.owed.splice(0);
  }

  private async through<T>(
    method: PortMethod,
    run: () => Promise<T>,
    eventOf?: (result: T) => PaymentEvent | null,
  ): Promise<T> {
    const index = this.calls.push(method) - 1;
    const kind = this.fault?.index === index ? this.fault.kind : null;
    if (kind === 'error') {
      throw new ProviderUnavailableError(`${method}: the provider answered 500`);
    }
    if (kind === 'timeout') {
      this.wait(CLIENT_TIMEOUT_SECONDS);
      throw new ProviderUnavailableError(`${method}: timed out`);
    }
    const result = await run();
    if (kind === 'late') {
      this.wait(CLIENT_TIMEOUT_SECONDS);
      const event = eventOf?.(result) ?? null;
      if (event) this.owed.push(event);
      throw new ProviderUnavailableError(`${method}: the answer came after the client gave up`);
    }
    return result;
  }

  createCard: PaymentGateway['createCard'] = (card) =>
    this.through('createCard', () => this.inner.createCard(card));
  mayCharge: PaymentGateway['mayCharge'] = (org, id) =>
    this.through('mayCharge', () => this.inner.mayCharge(org, id));
  charge = (request: ChargeRequest): Promise<PaymentIntentState> =>
    this.through(
      'charge',
      () => this.inner.charge(request),
      (state) => intentEvent(state, request.idempotencyKey),
    );
  retrievePaymentIntent: PaymentGateway['retrievePaymentIntent'] = (ref) =>
    this.through('retrievePaymentIntent', () => this.inner.retrievePaymentIntent(ref));
  findPaymentIntentByKey: PaymentGateway['findPaymentIntentByKey'] = (key) =>
    this.through('findPaymentIntentByKey', () => this.inner.findPaymentIntentByKey(key));
  refund: PaymentGateway['refund'] = (request) =>
    this.through('refund', () => this.inner.refund(request));
  cancelPaymentIntent = (ref: string): Promise<PaymentIntentState> =>
    this.through(
      'cancelPaymentIntent',
      () => this.inner.cancelPaymentIntent(ref),
      (state) => intentEvent(state, null),
    );
  createSetupIntent: PaymentGateway['createSetupIntent'] = (request) =>
    this.through('createSetupIntent', () => this.inner.createSetupIntent(request));
  retrieveSetupIntent: PaymentGateway['retrieveSetupIntent'] = (id) =>
    this.through('retrieveSetupIntent', () => this.inner.retrieveSetupIntent(id));
  detachPaymentMethod: PaymentGateway['detachPaymentMethod'] = (id) =>
    this.through('detachPaymentMethod', () => this.inner.detachPaymentMethod(id));
}

let events = 0;

/** The provider's webhook for a payment intent that ended (none while it waits or processes). */
function intentEvent(state: PaymentIntentState, chargeKey: string | null): PaymentEvent | null {
  if (!state.providerRef) return null;
  const id = `evt_late_${++events}_${state.providerRef}`;
  if (state.status === 'succeeded') {
    return { id, type: 'payment_intent.succeeded', providerRef: state.providerRef, chargeKey };
  }
  if (state.status === 'failed') {
    return {
      id,
      type: 'payment_intent.payment_failed',
      providerRef: state.providerRef,
      chargeKey,
      message: state.message,
    };
  }
  return null;
}
