import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import type { PaymentsConfig } from '@meterline/domain';
import { usePaymentsConfigQuery } from '../data/payments-config-query';
import { BuiltinCaptchaProvider, HCaptchaProvider } from './captcha/captcha';
import { ChallengeContext, type PresentChallenge } from './challenge-context';
import type { PaymentPort } from './payment-port';
import { ChallengeDialog, type PendingChallenge } from './simulator/challenge-dialog';
import { createSimulatorPort } from './simulator/simulator-port';

export type PaymentPortState =
  | { status: 'loading' }
  | { status: 'error'; error: unknown; retry: () => void }
  | { status: 'ready'; port: PaymentPort };

const PaymentPortContext = createContext<PaymentPortState | null>(null);

/** The payment port chosen by the server's configuration, once it is known. */
export function usePaymentPort(): PaymentPortState {
  const state = use(PaymentPortContext);
  if (!state) throw new Error('usePaymentPort is only available inside PaymentsProvider');
  return state;
}

type StripeLoad = { key: string; port: PaymentPort } | { key: string; error: unknown };

/** Stripe's adapter is its own chunk: deployments on the simulator never download it. */
function useStripePort(config: PaymentsConfig | undefined): PaymentPortState | null {
  const key = config?.payment_provider === 'stripe' ? config.publishable_key : null;
  const [loaded, setLoaded] = useState<StripeLoad | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!key) return;
    let live = true;
    import('./stripe/stripe-port').then(
      ({ createStripePort }) => live && setLoaded({ key, port: createStripePort(key) }),
      (error: unknown) => live && setLoaded({ key, error }),
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);

  if (config?.payment_provider !== 'stripe') return null;
  if (!key) {
    return {
      status: 'error',
      error: new Error('The card provider is not configured. Contact support.'),
      retry: () => undefined,
    };
  }
  if (!loaded || loaded.key !== key) return { status: 'loading' };
  if ('error' in loaded) {
    return {
      status: 'error',
      error: loaded.error,
      retry: () => {
        setLoaded(null);
        setAttempt((n) => n + 1);
      },
    };
  }
  return { status: 'ready', port: loaded.port };
}

/**
 * Everything a payment form needs from the third parties, chosen by GET /platform/payments/config:
 * the payment port (simulator or Stripe), the captcha port (built-in or hCaptcha) and, for the
 * simulator, its 3-D Secure challenge screen. Mount it around a payment form only: the config is
 * asked for when a form opens.
 */
export function PaymentsProvider({ children }: { children: ReactNode }) {
  const config = usePaymentsConfigQuery();
  const [challenge, setChallenge] = useState<PendingChallenge | null>(null);

  const presentChallenge = useCallback<PresentChallenge>(
    (id) =>
      new Promise<void>((resolve, reject) => {
        setChallenge({
          id,
          settle: (error) => {
            setChallenge(null);
            if (error) reject(error instanceof Error ? error : new Error(String(error)));
            else resolve();
          },
        });
      }),
    [],
  );
  const simulator = useMemo(() => createSimulatorPort(presentChallenge), [presentChallenge]);
  const stripe = useStripePort(config.data);

  let state: PaymentPortState;
  if (config.isPending) state = { status: 'loading' };
  else if (config.isError) {
    state = { status: 'error', error: config.error, retry: () => void config.refetch() };
  } else state = stripe ?? { status: 'ready', port: simulator };

  const captcha = config.data?.captcha;
  const content = (
    <ChallengeContext value={presentChallenge}>
      <PaymentPortContext value={state}>{children}</PaymentPortContext>
      <ChallengeDialog challenge={challenge} />
    </ChallengeContext>
  );
  if (captcha?.provider === 'hcaptcha' && captcha.site_key) {
    return <HCaptchaProvider siteKey={captcha.site_key}>{content}</HCaptchaProvider>;
  }
  return <BuiltinCaptchaProvider>{content}</BuiltinCaptchaProvider>;
}
