import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/database.ts';
import { BuiltinCaptcha } from './builtin-captcha.ts';
import type { Captcha } from './captcha.ts';
import { HCaptcha } from './hcaptcha.ts';

/** The configured captcha (hCaptcha only with its keys, checked at start); the built-in one otherwise. */
export function createCaptcha(
  db: Db,
  clock: Clock,
  config: Pick<Config, 'CAPTCHA_PROVIDER' | 'HCAPTCHA_SITE_KEY' | 'HCAPTCHA_SECRET'>,
  log: { warn(object: unknown, message: string): void },
): Captcha {
  if (
    config.CAPTCHA_PROVIDER === 'hcaptcha' &&
    config.HCAPTCHA_SITE_KEY &&
    config.HCAPTCHA_SECRET
  ) {
    return new HCaptcha(config.HCAPTCHA_SITE_KEY, config.HCAPTCHA_SECRET, log);
  }
  return new BuiltinCaptcha(db, clock);
}
