import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { PaymentSimulator } from './simulator.ts';

/** The built-in simulator unless the card provider is configured (the provider adapter comes with payments). */
export function createPaymentGateway(db: Db, clock: Clock): PaymentGateway {
  return new PaymentSimulator(db, () => clock.now());
}
