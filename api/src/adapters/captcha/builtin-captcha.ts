import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Captcha, CaptchaContext } from './captcha.ts';

export const BUILTIN_CAPTCHA_TTL_SECONDS = 5 * 60;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The built-in invisible captcha: the server issues a random token to a signed-in user, keeps only its
 * hash, and a verification spends it in one statement (UPDATE ... RETURNING), so two requests racing
 * with one token cannot both pass; the repeat of the request that spent it (same key) passes again. A token is good for 5 minutes and for the user it was issued to.
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
    const now = this.clock.now();
    const where = this.db
      .updateTable('captcha_tokens')
      .where('token_hash', '=', hash(token))
      .where('user_id', '=', context.userId)
      .where('expires_at', '>', now);
    // One statement decides, so two requests racing with one token cannot both pass.
    const spent = context.requestKey
      ? await where
          .set({ spent_by: context.requestKey })
          .where((eb) =>
            eb.or([eb('spent_by', 'is', null), eb('spent_by', '=', context.requestKey ?? '')]),
          )
          .returning('token_hash')
          .executeTakeFirst()
      : await where
          .set({ spent_by: `once:${randomBytes(8).toString('hex')}` })
          .where('spent_by', 'is', null)
          .returning('token_hash')
          .executeTakeFirst();
    return spent !== undefined;
  }
}
