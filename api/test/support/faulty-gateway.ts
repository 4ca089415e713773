import type { PaymentGateway, PaymentIntentState } from '../../src/adapters/payment-gateway.ts';
import { ProviderUnavailableError } from '../../src/adapters/payment-gateway.ts';

/** The calls of the payment port a fault can be injected into. */
export type PortCall = 'charge' | 'retrievePaymentIntent' | 'findPaymentIntentByKey' | 'refund';

/**
 * When the fault strikes: `before` the call reaches the provider (nothing happened there), `after` the
 * provider did the work but its answer is lost on the way back (a timeout, a dead connection).
 */
export type FaultMoment = 'before' | 'after';

interface Fault {
  call: PortCall;
  moment: FaultMoment;
  times: number;
  /** Only calls whose first argument this accepts (e.g. one card, one key). */
  matches?: (argument: unknown) => boolean;
}

/**
 * The real payment port (the simulator) with faults injected at its boundary, as a flaky network or a
 * slow provider would produce them. Every other call goes to the provider untouched.
 */
export class FaultyGateway implements PaymentGateway {
  private readonly faults: Fault[] = [];
  /** Every call made through the port, by name. */
  readonly calls: PortCall[] = [];

  constructor(private readonly inner: PaymentGateway) {}

  get provider() {
    return this.inner.provider;
  }

  /** Arms a fault for the next `times` matching calls. */
  fail(call: PortCall, moment: FaultMoment, options: Omit<Partial<Fault>, 'call' | 'moment'> = {}) {
    this.faults.push({ call, moment, times: options.times ?? 1, matches: options.matches });
    return this;
  }

  clear(): void {
    this.faults.length = 0;
  }

  private async through<T>(call: PortCall, argument: unknown, run: () => Promise<T>): Promise<T> {
    this.calls.push(call);
    const fault = this.faults.find(
      (item) => item.call === call && item.times > 0 && (item.matches?.(argument) ?? true),
    );
    if (fault) fault.times--;
    if (fault?.moment === 'before') {
      throw new ProviderUnavailableError(`${call}: the connection failed before the provider`);
    }
    const result = await run();
    if (fault?.moment === 'after') {
      throw new ProviderUnavailableError(`${call}: the provider's answer was lost`);
    }
    return result;
  }

  createCard: PaymentGateway['createCard'] = (card) => this.inner.createCard(card);
  mayCharge: PaymentGateway['mayCharge'] = (org, id) => this.inner.mayCharge(org, id);
  cancelPaymentIntent: PaymentGateway['cancelPaymentIntent'] = (ref) =>
    this.inner.cancelPaymentIntent(ref);
  createSetupIntent: PaymentGateway['createSetupIntent'] = (request) =>
    this.inner.createSetupIntent(request);
  retrieveSetupIntent: PaymentGateway['retrieveSetupIntent'] = (id) =>
    this.inner.retrieveSetupIntent(id);
  detachPaymentMethod: PaymentGateway['detachPaymentMethod'] = (id) =>
    this.inner.detachPaymentMethod(id);

  charge: PaymentGateway['charge'] = (request) =>
    this.through('charge', request, () => this.inner.charge(request));
  retrievePaymentIntent = (ref: string): Promise<PaymentIntentState> =>
    this.through('retrievePaymentIntent', ref, () => this.inner.retrievePaymentIntent(ref));
  findPaymentIntentByKey = (key: string): Promise<PaymentIntentState | null> =>
    this.through('findPaymentIntentByKey', key, () => this.inner.findPaymentIntentByKey(key));
  refund: PaymentGateway['refund'] = (request) =>
    this.through('refund', request, () => this.inner.refund(request));
}
