import { FakeStripe } from './fake-stripe.ts';
import {
  signInEveryone,
  startTestServer,
  type StartTestServerOptions,
  type TestClient,
  type TestServer,
} from './server.ts';

export interface StripeWorld {
  stripe: FakeStripe;
  server: TestServer;
  as: (user: string) => TestClient;
  close(): Promise<void>;
}

/**
 * A fake Stripe API on loopback and a real server whose Stripe adapter talks to it (keys named after
 * `name`; `env` adds to them or replaces them), every demo user signed in.
 */
export async function startStripeServer(
  options: StartTestServerOptions & { name: string },
): Promise<StripeWorld> {
  const { name, env, ...rest } = options;
  const stripe = await FakeStripe.start();
  const server = await startTestServer({
    ...rest,
    env: {
      STRIPE_SECRET_KEY: `sk_test_meterline${name}`,
      STRIPE_PUBLISHABLE_KEY: `pk_test_meterline${name}`,
      STRIPE_WEBHOOK_SECRET: `whsec_meterline${name}`,
      STRIPE_API_URL: stripe.url,
      ...env,
    },
  });
  const as = await signInEveryone(server);
  return {
    stripe,
    server,
    as,
    async close() {
      await server.close();
      await stripe.close();
    },
  };
}
