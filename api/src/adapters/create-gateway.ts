import type { Clock } from '../clock.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { PaymentSimulator } from './simulator/simulator.ts';
import { StripeGateway } from './stripe/stripe-gateway.ts';

/** The configured provider (Stripe only with its keys, checked at start); the built-in simulator otherwise. */
export function createPaymentGateway(
  db: Db,
  clock: Clock,
  config?: Pick<
    Config,
    'PAYMENT_PROVIDER' | 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_API_URL'
  >,
): PaymentGateway {
  if (config?.PAYMENT_PROVIDER === 'stripe' && config.STRIPE_SECRET_KEY) {
    return new StripeGateway(db, config.STRIPE_SECRET_KEY, { apiUrl: config.STRIPE_API_URL });
  }
  return new PaymentSimulator(db, () => clock.now());
}
