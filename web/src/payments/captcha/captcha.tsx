import { createContext, lazy, Suspense, use, useMemo, useRef, type ReactNode } from 'react';
import type HCaptchaWidget from '@hcaptcha/react-hcaptcha';
import { CAPTCHA_FAILED_MESSAGE } from '@meterline/domain';
import { getBuiltinCaptchaToken } from '../../data/captcha';
import { useTheme } from '../../lib/theme';

/**
 * The captcha port (decision 004): an invisible check before a setup intent or a top-up. The
 * server verifies the token; the browser only obtains one.
 */
export interface CaptchaPort {
  /** A fresh single-use token. */
  execute(): Promise<string>;
}

const CaptchaContext = createContext<CaptchaPort | null>(null);

export function useCaptcha(): CaptchaPort {
  const captcha = use(CaptchaContext);
  if (!captcha) throw new Error('useCaptcha is only available inside PaymentsProvider');
  return captcha;
}

/** The built-in adapter: the server issues the token to the signed-in user. */
const builtinCaptcha: CaptchaPort = { execute: getBuiltinCaptchaToken };

export function BuiltinCaptchaProvider({ children }: { children: ReactNode }) {
  return <CaptchaContext value={builtinCaptcha}>{children}</CaptchaContext>;
}

// hCaptcha's script loads only for organizations of a deployment configured with it.
const HCaptcha = lazy(() => import('@hcaptcha/react-hcaptcha'));

/**
 * The hCaptcha adapter, in invisible mode: the widget shows a challenge only when hCaptcha doubts
 * the visitor. Each token is used once, so the widget is reset after each.
 */
export function HCaptchaProvider({ siteKey, children }: { siteKey: string; children: ReactNode }) {
  const widget = useRef<HCaptchaWidget>(null);
  const { theme } = useTheme();
  const port = useMemo<CaptchaPort>(
    () => ({
      async execute() {
        const current = widget.current;
        if (!current) throw new Error(CAPTCHA_FAILED_MESSAGE);
        try {
          const { response } = await current.execute({ async: true });
          return response;
        } catch {
          throw new Error(CAPTCHA_FAILED_MESSAGE);
        } finally {
          current.resetCaptcha();
        }
      },
    }),
    [],
  );
  return (
    <CaptchaContext value={port}>
      {children}
      <Suspense fallback={null}>
        <HCaptcha ref={widget} sitekey={siteKey} size="invisible" theme={theme} />
      </Suspense>
    </CaptchaContext>
  );
}
