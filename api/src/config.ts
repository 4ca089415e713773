import { z } from 'zod';
import { FEATURES, type Feature } from '@meterline/domain';
import { DEFAULT_CLOSE_GRACE_MINUTES } from './services/billing/close-grace.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Keeps every table in this schema of DATABASE_URL's database (isolation for tests and side-by-side installs). */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lowercase SQL identifier')
    .optional(),
  DISABLE_PROJECT_CREATION_AND_UPDATES: booleanFlag,
  DISABLED_FEATURES: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const names = (value ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const unknown = names.filter((name) => !(FEATURES as readonly string[]).includes(name));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown feature ${unknown.join(', ')}; known features are ${FEATURES.join(', ')}`,
        });
        return z.NEVER;
      }
      return names as Feature[];
    }),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 90)
    .default(24 * 14),
  /** However often it is used, a session ends this long after sign-in. */
  SESSION_MAX_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 365)
    .default(24 * 90),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: booleanFlag,
  METERING_API_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  VERCEL_MANAGE_URL: z
    .string()
    .min(1)
    .default('/partners/vercel/installations/{installationId}')
    .refine((value) => value.includes('{installationId}'), 'must contain {installationId}'),
  AWS_MARKETPLACE_MANAGE_URL: z
    .string()
    .min(1)
    .default('/partners/aws-marketplace/{slug}')
    .refine((value) => value.includes('{slug}'), 'must contain {slug}'),
  SEED_DEMO: z.enum(['auto', 'never']).default('auto'),
  BILLING_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** How long after its end a cycle waits for late usage before it closes (at most a week). */
  BILLING_CLOSE_GRACE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(DEFAULT_CLOSE_GRACE_MINUTES),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  // The card provider: both keys select Stripe; neither, the built-in simulator.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(
      /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/,
      'must be a Stripe secret key (sk_test_… or sk_live_…)',
    )
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(
      /^pk_(test|live)_[A-Za-z0-9_]+$/,
      'must be a Stripe publishable key (pk_test_… or pk_live_…)',
    )
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_+/=]+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  /** Where the server calls Stripe's API, when not Stripe itself: a local mock of it (tests, offline). */
  STRIPE_API_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  // The captcha: both keys select hCaptcha; neither, the built-in captcha.
  HCAPTCHA_SITE_KEY: z.string().min(1).max(200).optional(),
  HCAPTCHA_SECRET: z.string().min(1).max(200).optional(),
});

/** Keys that only work together: both or neither, and never a test key beside a live one. */
function checkProviderKeys(env: z.output<typeof envSchema>, ctx: z.RefinementCtx): void {
  const pair = (a: keyof typeof env, b: keyof typeof env) => {
    if (Boolean(env[a]) !== Boolean(env[b])) {
      ctx.addIssue({
        code: 'custom',
        path: [env[a] ? b : a],
        message: `${a} and ${b} must be set together (or neither)`,
      });
    }
  };
  pair('STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY');
  pair('HCAPTCHA_SITE_KEY', 'HCAPTCHA_SECRET');
  if (env.STRIPE_API_URL && !env.STRIPE_SECRET_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_API_URL'],
      message: 'needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY',
    });
  }
  if (env.STRIPE_WEBHOOK_SECRET && !env.STRIPE_SECRET_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_WEBHOOK_SECRET'],
      message: 'needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY',
    });
  }
  const mode = (key: string | undefined) => key?.match(/_(test|live)_/)?.[1];
  if (
    env.STRIPE_SECRET_KEY &&
    env.STRIPE_PUBLISHABLE_KEY &&
    mode(env.STRIPE_SECRET_KEY) !== mode(env.STRIPE_PUBLISHABLE_KEY)
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['STRIPE_PUBLISHABLE_KEY'],
      message: 'must be of the same mode (test or live) as STRIPE_SECRET_KEY',
    });
  }
}

const configSchema = envSchema.superRefine(checkProviderKeys);

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {}

/** Reads and validates the environment; every bad value is named in one message. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** For tests and embedding: defaults plus overrides, validated the same way. */
export function configFrom(overrides: Partial<Record<keyof Config, string>>): Config {
  return loadConfig(overrides);
}
