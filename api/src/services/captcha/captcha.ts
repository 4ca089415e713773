import type { Db } from '../../db/database.ts';

export interface CaptchaContext {
  userId: string;
  remoteIp?: string | undefined;
  /** Consume a built-in token inside this transaction, so that a request that fails leaves it unused. */
  db?: Db;
}

/**
 * The captcha port: the built-in invisible captcha (server-issued, single-use, short-lived tokens) or
 * hCaptcha. Setup intents and top-ups verify a token before anything else happens.
 */
export interface Captcha {
  readonly provider: 'builtin' | 'hcaptcha';
  /** What the browser widget needs; null for the built-in captcha. */
  readonly siteKey: string | null;
  /** True once for a good token: a token passes one verification only. */
  verify(token: string, context: CaptchaContext): Promise<boolean>;
}
