import { createHash } from 'node:crypto';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

// Where the card provider's and the captcha's browser code is loaded from and talks to, as their own
// documentation lists it: Stripe.js and its frames (card fields, 3-D Secure), hCaptcha's script and frames.
const STRIPE_SCRIPTS = ['https://js.stripe.com', 'https://*.js.stripe.com'];
const STRIPE_FRAMES = [...STRIPE_SCRIPTS, 'https://hooks.stripe.com'];
const STRIPE_API = ['https://api.stripe.com'];
const HCAPTCHA = ['https://hcaptcha.com', 'https://*.hcaptcha.com'];

const HSTS = 'max-age=31536000; includeSubDomains';

// A script element without src: its text is what the browser hashes (line breaks normalized by the parser).
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script\s*>/gi;

/** CSP sources allowing exactly the inline scripts of this page (the web app's index.html), by their hash. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(([, text = '']) => {
    const digest = createHash('sha256').update(text.replace(/\r\n?/g, '\n')).digest('base64');
    return `'sha256-${digest}'`;
  });
}

/**
 * The Content-Security-Policy of every answer. Scripts only from this origin, the page's own inline scripts
 * by hash, and the providers'; no inline handlers, no plugins, no framing by anyone. Styles allow inline:
 * the component libraries insert style elements at run time (toasts, scroll locks), and an injected style
 * cannot run code.
 */
export function contentSecurityPolicy(scriptHashes: string[]): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'script-src': ["'self'", ...scriptHashes, ...STRIPE_SCRIPTS, ...HCAPTCHA],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", ...HCAPTCHA],
    'img-src': ["'self'", 'data:'],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...STRIPE_API, ...HCAPTCHA],
    'frame-src': [...STRIPE_FRAMES, ...HCAPTCHA],
  };
}

/**
 * Security headers on every answer (the API, the web app, the API reference): the CSP above, nosniff, no
 * framing (frame-ancestors and X-Frame-Options), a referrer policy that gives other sites the origin at most
 * (paths hold invoice ids), and HSTS only on an answer that went over TLS (a plain-http one would be ignored,
 * and on localhost it would pin the browser to https).
 */
/** The platform API and the operator's endpoints, not the web app's files or pages. */
function isApiPath(url: string): boolean {
  if (url.startsWith('/platform/docs')) return false;
  return url.startsWith('/platform/') || url.startsWith('/internal/');
}

export default fp(
  async function securityHeaders(app: FastifyInstance, opts: { indexHtml: string }) {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: contentSecurityPolicy(inlineScriptHashes(opts.indexHtml)),
      },
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // Payment providers may finish a step in a window of their own and report back to its opener.
      crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
      strictTransportSecurity: false,
    });
    app.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      // The API's answers are one member's billing data (cards, addresses, secrets shown once, pay
      // links): never kept by a browser's disk cache or a shared proxy. A route may say otherwise.
      if (isApiPath(request.url)) reply.header('cache-control', 'no-store');
    });
  },
  { name: 'security-headers' },
);
