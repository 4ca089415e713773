export interface CaptchaContext {
  userId: string;
  remoteIp?: string | undefined;
  /**
   * The request spending the token (its idempotency key): the same request sent again (a double submit)
   * passes again with the same token, any other request does not. Without it a token passes once.
   */
  requestKey?: string;
}

/**
 * The captcha port: the built-in invisible captcha (server-issued, single-use, short-lived tokens) or
 * hCaptcha. Setup intents and top-ups verify a token before anything else happens.
 */
export interface Captcha {
  readonly provider: 'builtin' | 'hcaptcha';
  /** What the browser widget needs; null for the built-in captcha. */
  readonly siteKey: string | null;
  /**
   * True once for a good token: a token passes one verification only (or the repeats of the one request
   * that spent it). Never called inside a database transaction: hCaptcha is a remote call.
   */
  verify(token: string, context: CaptchaContext): Promise<boolean>;
}
