import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Captcha, CaptchaContext } from './captcha.ts';

export const BUILTIN_CAPTCHA_TTL_SECONDS = 5 * 60;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The built-in invisible captcha: the server issues a random token to a signed-in user, keeps only its
 * hash, and a verification consumes it in one statement (DELETE ... RETURNING), so two requests racing
 * with one token cannot both pass. A token is good for 5 minutes and for the user it was issued to.
 */
export class BuiltinCaptcha implements Captcha {
  readonly provider = 'builtin';
  readonly siteKey = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async issue(userId: string): Promise<string> {
    const now = this.clock.now();
    const token = `cap_${randomBytes(32).toString('base64url')}`;
    // Expired tokens of this user go as new ones come, so the table stays small.
    await this.db
      .deleteFrom('captcha_tokens')
      .where('user_id', '=', userId)
      .where('expires_at', '<=', now)
      .execute();
    await this.db
      .insertInto('captcha_tokens')
      .values({
        token_hash: hash(token),
        user_id: userId,
        expires_at: new Date(now.getTime() + BUILTIN_CAPTCHA_TTL_SECONDS * 1000),
      })
      .execute();
    return token;
  }

  async verify(token: string, context: CaptchaContext): Promise<boolean> {
    const consumed = await (context.db ?? this.db)
      .deleteFrom('captcha_tokens')
      .where('token_hash', '=', hash(token))
      .where('user_id', '=', context.userId)
      .where('expires_at', '>', this.clock.now())
      .returning('token_hash')
      .executeTakeFirst();
    return consumed !== undefined;
  }
}
