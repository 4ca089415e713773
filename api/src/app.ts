import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle, Db } from './db/database.ts';
import { MAX_PATH_PARAMETER_LENGTH } from './openapi.ts';
import openApiDocument, { configuredPublicUrl } from './openapi-document.ts';
import { logFormat, logOptions, requestLogging, type LogStream } from './log-options.ts';
import access from './plugins/access.ts';
import { AccessCache } from './plugins/access-cache.ts';
import csrf from './plugins/csrf.ts';
import errors from './plugins/errors.ts';
import { BillingJobHeartbeat, healthPlugin } from './plugins/health.ts';
import { metricsPlugin } from './plugins/metrics.ts';
import { sharedRateLimitStore } from './plugins/rate-limits.ts';
import { RateLimitCounters } from './repositories/rate-limits.ts';
import { responseSerializer } from './plugins/response-serializer.ts';
import securityHeaders from './plugins/security-headers.ts';
import session from './plugins/session.ts';
import authRoutes from './routes/auth.ts';
import billingRoutes from './routes/billing.ts';
import spendAlertRoutes from './routes/spend-alert.ts';
import internalRoutes from './routes/internal.ts';
import invoiceRoutes from './routes/invoices.ts';
import usageRoutes from './routes/usage.ts';
import { CycleRowsCache } from './services/subscription/cycle-data.ts';
import type { PaymentGateway } from './adapters/payment-gateway.ts';
import customerRoutes from './routes/customer.ts';
import entitlementRoutes from './routes/entitlements.ts';
import restrictionHistoryRoutes from './routes/restriction-history.ts';
import feedbackRoutes from './routes/feedback.ts';
import memberRoutes from './routes/members.ts';
import organizationRoutes from './routes/organizations.ts';
import partnerRoutes from './routes/partners.ts';
import profileRoutes from './routes/profile.ts';
import projectRoutes from './routes/projects.ts';
import taxIdRoutes from './routes/tax-ids.ts';
import captchaRoutes from './routes/captcha.ts';
import mailboxRoutes from './routes/mailbox.tsx';
import subscriptionChangeRoutes from './routes/subscription-changes.ts';
import spendCapPreviewRoutes from './routes/spend-cap-preview.ts';
import { membersAtFreeProjectLimit } from './services/restrictions/members-at-free-project-limit.ts';
import creditRoutes from './routes/credits.ts';
import invoicePaymentRoutes from './routes/invoice-payments.ts';
import payLinkRoutes from './routes/pay-links.ts';
import paymentRoutes from './routes/payments.ts';
import simulatorRoutes from './routes/simulator.ts';
import webhookRoutes from './routes/webhooks.ts';
import webhookEndpointRoutes from './routes/webhook-endpoints.ts';
import accessTokenRoutes from './routes/access-tokens.ts';
import auditLogRoutes from './routes/audit-log.ts';
import { WebhookSignal } from './services/webhooks/delivery-worker.ts';

declare module 'fastify' {
  interface FastifyInstance {
    webhookSignal: WebhookSignal;
    billingJobHeartbeat: BillingJobHeartbeat;
  }
}
import { createCaptcha } from './adapters/captcha/create-captcha.ts';
import { PaymentSimulator } from './adapters/simulator/simulator.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  /** A store this process alone writes announces access changes, which lets the access guard keep its answers. */
  onAccessChange: DatabaseHandle['onAccessChange'];
  clock: Clock;
  gateway: PaymentGateway;
  /** The built-in simulator behind `gateway` (which may wrap it), when it is the provider. */
  simulator?: PaymentSimulator | null;
  /** Where log lines go instead of standard output (tests read them). */
  logStream?: LogStream | undefined;
}

const BODY_LIMIT = 1024 * 1024;
/** A client has this long to send a whole request (headers and body): a trickling socket is closed. */
const REQUEST_TIMEOUT_MS = 30_000;
/** ... and this long for its headers. */
const HEADERS_TIMEOUT_MS = 15_000;
/** An idle kept-alive connection is closed after this (above the 60 s of common load balancers). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** How long the access guard keeps a session's answer (embedded database only). */
const ACCESS_CACHE_MS = 10_000;

export async function buildApp({
  config,
  db,
  onAccessChange,
  clock,
  gateway,
  simulator: builtinSimulator,
  logStream,
}: AppDeps): Promise<FastifyInstance> {
  const format = logStream ? 'json' : logFormat(config);
  // Outside production, through the stream the start-up block is written to, so lines logged before it stay
  // before it (pino's own destination writes later, from its buffer); production keeps pino's.
  const destination = logStream ?? (config.NODE_ENV === 'production' ? undefined : process.stdout);
  const app = Fastify({
    logger: logOptions(config.LOG_LEVEL, destination, format),
    logController: requestLogging(format),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Above every path parameter's own bound, so its schema answers (400 naming it), not the router.
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
  }).withTypeProvider<ZodTypeProvider>();
  // The webhook worker (started beside the server) listens for what routes queue.
  const webhookSignal = new WebhookSignal();
  app.decorate('webhookSignal', webhookSignal);
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  // Stopping: a request already in flight is answered, then its connection closes (kept alive, it would
  // hold the stop until the keep-alive timeout). Requests that arrive meanwhile get Fastify's 503.
  let stopping = false;
  app.addHook('preClose', (done) => {
    stopping = true;
    done();
  });
  app.addHook('onSend', async (_request, reply) => {
    if (stopping) reply.header('connection', 'close');
  });
  // What the readiness probe says of this process's billing job (the scheduler beats it).
  const heartbeat = new BillingJobHeartbeat(config.BILLING_JOB_INTERVAL_SECONDS);
  app.decorate('billingJobHeartbeat', heartbeat);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer);

  await app.register(errors);
  const webDist = config.WEB_DIST;
  const indexHtml = join(webDist, 'index.html');
  // Before every route, the API reference's included.
  await app.register(securityHeaders, {
    indexHtml: existsSync(indexHtml) ? readFileSync(indexHtml, 'utf8') : '',
  });
  await app.register(cookie);
  // The security limits count in the database, so every process on it shares one count (on the embedded
  // database too: one way of counting, the one every test runs). Only routes that name a limit count.
  const counters = new RateLimitCounters(db);
  await app.register(rateLimit, { global: false, store: sharedRateLimitStore(counters) });
  await app.register(openApiDocument, {
    bodyLimit: BODY_LIMIT,
    publicUrl: configuredPublicUrl(config),
  });

  const accessCache = onAccessChange ? new AccessCache(ACCESS_CACHE_MS) : null;
  if (accessCache) await onAccessChange?.(() => accessCache.clear());
  await app.register(session, { db, config, clock, accessCache });
  await app.register(access, {
    db,
    clock,
    operatorKey: config.METERING_API_KEY,
    counters,
    cache: accessCache,
  });
  await app.register(csrf, { config });

  await app.register(healthPlugin, { db, clock, heartbeat });
  await app.register(metricsPlugin, { db, clock, heartbeat });
  await app.register(authRoutes, { db, clock, counters });
  await app.register(profileRoutes, {
    db,
    disabledFeatures: config.DISABLED_FEATURES,
    projectUpdatesDisabled: config.DISABLE_PROJECT_CREATION_AND_UPDATES,
  });
  await app.register(organizationRoutes, { db, clock });
  await app.register(projectRoutes, { db });
  await app.register(partnerRoutes, { db, config });
  const cycleRows = new CycleRowsCache();
  await app.register(billingRoutes, { db, clock, cache: cycleRows });
  await app.register(spendAlertRoutes, { db, clock, cache: cycleRows });
  await app.register(invoiceRoutes, {
    db,
    seller: {
      name: config.SELLER_NAME,
      addressLines: config.SELLER_ADDRESS,
      taxId: config.SELLER_TAX_ID,
    },
    publicUrl: config.PUBLIC_URL,
  });
  await app.register(usageRoutes, { db, clock, cache: cycleRows });
  await app.register(internalRoutes, { db, clock });
  if (config.NODE_ENV !== 'production') {
    await app.register(mailboxRoutes, { db, baseUrl: config.PUBLIC_URL });
  }
  await app.register(customerRoutes, { db, clock });
  await app.register(taxIdRoutes, { db, clock });
  await app.register(memberRoutes, { db });
  await app.register(entitlementRoutes, { db });
  await app.register(restrictionHistoryRoutes, { db });
  await app.register(feedbackRoutes, { db });

  const captcha = createCaptcha(db, clock, config, app.log);
  if (gateway.provider === 'stripe' && !config.STRIPE_WEBHOOK_SECRET) {
    app.log.warn(
      'STRIPE_WEBHOOK_SECRET is not set: payments that need 3-D Secure are settled only when retried',
    );
  }
  await app.register(captchaRoutes, { captcha });
  await app.register(paymentRoutes, { db, gateway, clock, captcha, config });
  await app.register(creditRoutes, { db, gateway, clock, captcha });
  await app.register(invoicePaymentRoutes, { db, gateway, clock });
  await app.register(payLinkRoutes, { db, gateway, clock });
  const planChangeDeps = {
    db,
    gateway,
    clock,
    projectUpdatesDisabled: config.DISABLE_PROJECT_CREATION_AND_UPDATES,
    closeGraceMinutes: config.BILLING_CLOSE_GRACE_MINUTES,
    membersAtFreeLimit: async (db: Db, organizationId: string) =>
      (await membersAtFreeProjectLimit(db, organizationId)).map(
        (member) => member.username || member.primary_email,
      ),
  };
  await app.register(subscriptionChangeRoutes, planChangeDeps);
  await app.register(spendCapPreviewRoutes, planChangeDeps);
  await app.register(accessTokenRoutes, { db, clock });
  await app.register(auditLogRoutes, { db, clock });
  await app.register(webhookEndpointRoutes, {
    db,
    production: config.NODE_ENV === 'production',
    signal: webhookSignal,
    clock,
  });
  await app.register(webhookRoutes, {
    db,
    gateway,
    clock,
    webhookSecret: config.STRIPE_WEBHOOK_SECRET,
  });
  // The simulator's browser side exists only while it is the provider.
  const simulator = builtinSimulator ?? (gateway instanceof PaymentSimulator ? gateway : null);
  if (simulator) {
    await app.register(simulatorRoutes, { db, simulator, clock });
  }

  await registerWebApp(app, webDist);
  return app;
}

/** Paths probes commonly ask; ours are /platform/health and /platform/ready. */
const PROBE_PATHS = new Set(['/health', '/healthz', '/livez', '/ready', '/readyz', '/metrics']);

/** The web app is served from the same origin; any non-API path falls back to its index.html. */
async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasWeb = existsSync(join(webDist, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webDist, wildcard: true, index: false });
    // The root is the app's page too (the static files have no index, and a directory is no page).
    app.get('/', { schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile('index.html'),
    );
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // The usual probe paths are not the app's page either: a probe must never pass on HTML.
    const isApi =
      path.startsWith('/platform') || path.startsWith('/internal') || PROBE_PATHS.has(path);
    // A missing file is a 404, not the app's page: a stale asset must not come back as HTML.
    const isFile = path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path);
    if (isApi || isFile || request.method !== 'GET') {
      return reply.code(404).send({ message: `No route for ${request.method} ${path}` });
    }
    if (!hasWeb) {
      return reply.code(404).send({ message: 'The web app is not built: run `npm run build`.' });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
