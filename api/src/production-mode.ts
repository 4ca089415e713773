import type { TrustProxy } from './config.ts';

/** The choices production mode looks at, as configured: a variable left to its default is undefined. */
export interface DeploymentChoices {
  PAYMENT_PROVIDER?: 'simulator' | 'stripe' | undefined;
  STRIPE_SECRET_KEY?: string | undefined;
  CAPTCHA_PROVIDER?: 'builtin' | 'hcaptcha' | undefined;
  HCAPTCHA_SITE_KEY?: string | undefined;
  EMAIL_PROVIDER?: 'outbox' | 'smtp' | undefined;
  SMTP_URL?: string | undefined;
  PUBLIC_URL?: string | undefined;
  SEED_DEMO?: 'auto' | 'always' | 'never' | undefined;
  COOKIE_SECURE: 'auto' | 'true' | 'false';
  TRUST_PROXY: TrustProxy;
}

export interface ProductionProblem {
  variable: string;
  message: string;
}

/**
 * Product decisions §14: with NODE_ENV=production the server starts only when nothing of the laptop demo
 * is left to chance. A built-in stand-in for a third-party service runs only when chosen by name (not
 * fallen into for want of keys), the demo world is seeded only when asked for, and the session cookie is
 * always Secure. `npm start` without NODE_ENV stays the demo. Every problem is reported, not the first.
 */
export function productionProblems(env: DeploymentChoices): ProductionProblem[] {
  const problems: ProductionProblem[] = [];
  // The key pairs are checked as pairs elsewhere: one key of a pair stands for both here.
  if (!env.PAYMENT_PROVIDER && !env.STRIPE_SECRET_KEY) {
    problems.push({
      variable: 'PAYMENT_PROVIDER',
      message:
        'production would take payments with the built-in simulator: set STRIPE_SECRET_KEY and ' +
        'STRIPE_PUBLISHABLE_KEY, or PAYMENT_PROVIDER=simulator to run the simulator on purpose',
    });
  }
  if (!env.CAPTCHA_PROVIDER && !env.HCAPTCHA_SITE_KEY) {
    problems.push({
      variable: 'CAPTCHA_PROVIDER',
      message:
        'production would check captchas with the built-in captcha: set HCAPTCHA_SITE_KEY and ' +
        'HCAPTCHA_SECRET, or CAPTCHA_PROVIDER=builtin to run it on purpose',
    });
  }
  if (!env.EMAIL_PROVIDER && !env.SMTP_URL) {
    problems.push({
      variable: 'EMAIL_PROVIDER',
      message:
        'production would keep billing mail in the built-in outbox, where no customer reads it: set ' +
        'SMTP_URL (and EMAIL_FROM), or EMAIL_PROVIDER=outbox to keep it there on purpose',
    });
  }
  if (!env.PUBLIC_URL) {
    problems.push({
      variable: 'PUBLIC_URL',
      message: "production mail links to the product's public address: set PUBLIC_URL=https://…",
    });
  }
  if (!env.SEED_DEMO) {
    problems.push({
      variable: 'SEED_DEMO',
      message:
        'production would seed the demo world into an empty database: set SEED_DEMO=never, or ' +
        'auto or always for a demo server',
    });
  }
  if (env.COOKIE_SECURE === 'false') {
    problems.push({
      variable: 'COOKIE_SECURE',
      message:
        'production never sends cookies without Secure: set COOKIE_SECURE=true, or auto behind a ' +
        'TLS proxy named in TRUST_PROXY',
    });
  } else if (env.COOKIE_SECURE === 'auto' && env.TRUST_PROXY === false) {
    // The server speaks plain HTTP itself: only a trusted proxy's X-Forwarded-Proto can say "https".
    problems.push({
      variable: 'COOKIE_SECURE',
      message:
        'auto marks cookies Secure only on HTTPS requests, and without TRUST_PROXY this server sees ' +
        'none: set COOKIE_SECURE=true, or name the TLS proxy in TRUST_PROXY',
    });
  }
  return problems;
}
