import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { PaymentSimulator } from './simulator.ts';
import { StripeGateway } from './stripe-gateway.ts';

/** Stripe when both of its keys are configured (validated together at start); the built-in simulator otherwise. */
export function createPaymentGateway(
  db: Db,
  clock: Clock,
  config?: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_API_URL'>,
): PaymentGateway {
  if (config?.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY) {
    return new StripeGateway(db, config.STRIPE_SECRET_KEY, { apiUrl: config.STRIPE_API_URL });
  }
  return new PaymentSimulator(db, () => clock.now());
}
