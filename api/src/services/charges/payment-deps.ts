import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { PaymentGateway } from '../../adapters/payment-gateway.ts';

/** What every money flow needs: the store, the payment port and the wall clock. */
export interface PaymentDeps {
  db: Db;
  gateway: PaymentGateway;
  /** Wall-clock time: decides liveness (a call in flight, a challenge expired), never billing periods. */
  clock: Clock;
}
