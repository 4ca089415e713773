import { BlockList, isIP } from 'node:net';
import { z } from 'zod';
import { FEATURES, type Feature } from '@meterline/domain';
import { productionProblems } from './production-mode.ts';
import { fromRepoRoot } from './repo-root.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from './lib/close-grace.ts';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1');

/** What Fastify is told to trust: no proxy, or the proxies at these addresses and ranges. */
export type TrustProxy = false | string[];

// proxy-addr's names for the reserved ranges, which Fastify passes on.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry) || isIP(entry) !== 0) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0 || !prefix || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const TRUST_PROXY_FORMS =
  "name the proxies' addresses or ranges (TRUST_PROXY=127.0.0.1,10.0.0.0/8, or uniquelocal for " +
  'any proxy on a private network)';

/**
 * Which reverse proxies may name the client's address (X-Forwarded-For) and protocol: their addresses.
 * `true` would believe every hop, so a client could pick its own address by sending the header and escape
 * every per-address limit. A hop count cannot tell a proxy from a client that reaches the server
 * directly (Fastify no longer honours one: it trusts nothing then, and every client would share the
 * proxy's address). Both are refused with the form to use instead.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, ctx): TrustProxy => {
    const text = value?.trim() ?? '';
    if (text === '' || text === 'false' || text === '0') return false;
    if (text === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would trust every X-Forwarded-For hop, so any client could choose its own address: ' +
          TRUST_PROXY_FORMS,
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(text)) {
      ctx.addIssue({
        code: 'custom',
        message:
          'a hop count cannot tell a proxy from a client that reaches the server directly: ' +
          TRUST_PROXY_FORMS,
      });
      return z.NEVER;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    const bad = entries.filter((entry) => !isProxyAddress(entry));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${bad.map((entry) => `"${entry}"`).join(', ')} ${bad.length === 1 ? 'is' : 'are'} not ` +
          'an IP address, a CIDR range or loopback, linklocal, uniquelocal',
      });
      return z.NEVER;
    }
    const wide = entries.filter(coversTooMuch);
    if (wide.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message:
          `${wide.map((entry) => `"${entry}"`).join(', ')} ${wide.length === 1 ? 'spans' : 'span'} ` +
          'so much of the internet that any client could pose as a proxy (at most /8 for IPv4, /16 for ' +
          'public IPv6): ' +
          TRUST_PROXY_FORMS,
      });
      return z.NEVER;
    }
    return entries;
  });

/**
 * A range so wide it is the same as trusting every hop: an IPv4 range wider than /8 (0.0.0.0/1 and
 * 128.0.0.0/1 together are the whole internet), or an IPv6 one wider than /16 unless it lies inside the
 * unique-local or link-local space.
 */
function coversTooMuch(entry: string): boolean {
  const [address = '', prefix] = entry.split('/');
  if (prefix === undefined) return false;
  const bits = Number(prefix);
  if (isIP(address) === 4) return bits < 8;
  const inside = (network: string, networkBits: number) =>
    bits >= networkBits && withinIpv6(address, network, networkBits);
  return bits < 16 && !inside('fc00::', 7) && !inside('fe80::', 10);
}

function withinIpv6(address: string, network: string, bits: number): boolean {
  const list = new BlockList();
  list.addSubnet(network, bits, 'ipv6');
  return list.check(address, 'ipv6');
}

const envSchema = z.object({
  /** `production` refuses to start with anything of the laptop demo left to chance (production-mode.ts). */
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Absolute once read: a relative path is from the repository's root, whatever the working directory. */
  DATA_DIR: z.string().min(1).default('./.data').transform(fromRepoRoot),
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
  TRUST_PROXY: trustProxy,
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
  /** Who issues the invoices, as their PDF states it: name, address lines (`;` between them), VAT ID. */
  SELLER_NAME: z.string().trim().min(1).max(200).default('Meterline B.V.'),
  SELLER_ADDRESS: z
    .string()
    .max(500)
    .default('Keizersgracht 123; 1015 CJ Amsterdam; Netherlands')
    .transform((value) =>
      value
        .split(/[;\n]/)
        .map((line) => line.trim())
        .filter((line) => line !== ''),
    ),
  SELLER_TAX_ID: z.string().trim().min(1).max(50).default('NL123456789B01'),
  /** auto (the default) seeds an empty store; always resets the demo organizations at every start. */
  SEED_DEMO: z.enum(['auto', 'always', 'never']).optional(),
  BILLING_JOB_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  /** How long after its end a cycle waits for late usage before it closes (at most a week). */
  BILLING_CLOSE_GRACE_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(DEFAULT_CLOSE_GRACE_MINUTES),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Unset: one readable line per request on a terminal outside production, JSON otherwise (log-options.ts). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  WEB_DIST: z.string().min(1).default('web/dist').transform(fromRepoRoot),
  // The card provider: named, or else both keys select Stripe and neither the built-in simulator.
  PAYMENT_PROVIDER: z.enum(['simulator', 'stripe']).optional(),
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
  // The captcha: named, or else both keys select hCaptcha and neither the built-in captcha.
  EMAIL_PROVIDER: z.enum(['outbox', 'smtp']).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, 'must be an smtp:// or smtps:// URL (smtp://user:pass@host:587)')
    .optional(),
  EMAIL_FROM: z.string().min(3).max(200).default('Meterline Billing <billing@meterline.localhost>'),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be the http(s) address people reach the product at' })
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  EMAIL_OUTBOX_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  /** How often the webhook worker looks for due deliveries (and retries); 0 turns it off. */
  WEBHOOK_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
  CAPTCHA_PROVIDER: z.enum(['builtin', 'hcaptcha']).optional(),
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
  // A named provider and the keys must agree: keys left beside the other choice would be a silent surprise.
  const choice = (
    variable: 'PAYMENT_PROVIDER' | 'CAPTCHA_PROVIDER',
    builtIn: string,
    provider: string,
    keys: [keyof typeof env, keyof typeof env],
  ) => {
    const chosen = env[variable];
    const hasKeys = Boolean(env[keys[0]] || env[keys[1]]);
    if (chosen === provider && !hasKeys) {
      ctx.addIssue({
        code: 'custom',
        path: [variable],
        message: `${provider} needs ${keys[0]} and ${keys[1]}`,
      });
    }
    if (chosen === builtIn && hasKeys) {
      ctx.addIssue({
        code: 'custom',
        path: [variable],
        message: `${builtIn}, but ${keys[0]} and ${keys[1]} are set: unset them, or choose ${provider}`,
      });
    }
  };
  choice('PAYMENT_PROVIDER', 'simulator', 'stripe', [
    'STRIPE_SECRET_KEY',
    'STRIPE_PUBLISHABLE_KEY',
  ]);
  choice('CAPTCHA_PROVIDER', 'builtin', 'hcaptcha', ['HCAPTCHA_SITE_KEY', 'HCAPTCHA_SECRET']);
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

function checkEmail(env: z.output<typeof envSchema>, ctx: z.RefinementCtx): void {
  if (env.EMAIL_PROVIDER === 'smtp' && !env.SMTP_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['SMTP_URL'],
      message: 'is required with EMAIL_PROVIDER=smtp (smtp://user:pass@host:587)',
    });
  }
}

function checkProductionMode(env: z.output<typeof envSchema>, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV !== 'production') return;
  for (const problem of productionProblems(env)) {
    ctx.addIssue({ code: 'custom', path: [problem.variable], message: problem.message });
  }
}

/** The choices left to their defaults, made: a provider from its keys, the demo world when empty. */
function withDefaults(env: z.output<typeof envSchema>) {
  const paymentProvider: 'simulator' | 'stripe' =
    env.PAYMENT_PROVIDER ?? (env.STRIPE_SECRET_KEY ? 'stripe' : 'simulator');
  const captchaProvider: 'builtin' | 'hcaptcha' =
    env.CAPTCHA_PROVIDER ?? (env.HCAPTCHA_SITE_KEY ? 'hcaptcha' : 'builtin');
  const seedDemo: 'auto' | 'always' | 'never' = env.SEED_DEMO ?? 'auto';
  const emailProvider: 'outbox' | 'smtp' = env.EMAIL_PROVIDER ?? (env.SMTP_URL ? 'smtp' : 'outbox');
  return {
    ...env,
    EMAIL_PROVIDER: emailProvider,
    PUBLIC_URL: env.PUBLIC_URL ?? `http://localhost:${env.PORT}`,
    PAYMENT_PROVIDER: paymentProvider,
    CAPTCHA_PROVIDER: captchaProvider,
    SEED_DEMO: seedDemo,
  };
}

const configSchema = envSchema
  .superRefine(checkProviderKeys)
  .superRefine(checkEmail)
  .superRefine(checkProductionMode)
  .transform(withDefaults);

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
