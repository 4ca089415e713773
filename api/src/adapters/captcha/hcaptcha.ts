import type { Captcha, CaptchaContext } from './captcha.ts';

export const HCAPTCHA_VERIFY_URL = 'https://api.hcaptcha.com/siteverify';

type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * hCaptcha: the browser widget's token, verified server to server over HTTPS with the secret. hCaptcha
 * itself makes a token single use. An unreachable hCaptcha fails closed.
 */
export class HCaptcha implements Captcha {
  readonly provider = 'hcaptcha';

  constructor(
    readonly siteKey: string,
    private readonly secret: string,
    private readonly log: { warn(object: unknown, message: string): void },
    private readonly fetchImpl: FetchLike = fetch,
  ) {}

  async verify(token: string, context: CaptchaContext): Promise<boolean> {
    const form = new URLSearchParams({
      secret: this.secret,
      response: token,
      sitekey: this.siteKey,
    });
    if (context.remoteIp) form.set('remoteip', context.remoteIp);
    try {
      const response = await this.fetchImpl(HCAPTCHA_VERIFY_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) {
        this.log.warn({ status: response.status }, 'hCaptcha verification answered an error');
        return false;
      }
      const result = (await response.json()) as { success?: unknown; 'error-codes'?: unknown };
      if (result.success !== true) {
        this.log.warn({ errors: result['error-codes'] }, 'hCaptcha refused a token');
      }
      return result.success === true;
    } catch (error) {
      this.log.warn({ err: error }, 'hCaptcha could not be reached');
      return false;
    }
  }
}
