import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../src/clock.ts';
import type { RunningServer } from '../src/server.ts';
import { DEFAULT_CLOSE_GRACE_MINUTES } from '../src/lib/close-grace.ts';
import { runBillingJobs } from '../src/services/billing/run-billing-jobs.ts';
import { handlePaymentEvent } from '../src/services/charges/handle-payment-event.ts';
import { seedOnce, type FreshWorlds } from './support/fresh-world.ts';
import { assertNoHalfState, openingOf } from './support/invariants.ts';
import {
  addCard,
  attach,
  captchaToken,
  CARDS,
  confirmSetup,
  organizationIdOf,
  paymentMethod,
} from './support/payments.ts';
import { FAULT_KINDS, ScriptedPort, type FaultKind } from './support/port-faults.ts';
import { TestClient, testDatabases, type TestResponse } from './support/server.ts';

/**
 * Faults at every provider step. Each money flow runs once cleanly through a recording
 * port to learn which provider calls it makes; then, from a fresh demo world each time, once per call ×
 * per fault (the provider fails, times out, or answers after the client gave up). The product then heals
 * as it does in production (the provider's late webhooks, the billing job after the in-flight lease and
 * the staleness window), and one invariant checks that no half state is left. What the customer was
 * answered must be a success or a clear error, never an internal failure.
 */

const START = new Date(Math.floor(Date.now() / 1000) * 1000);
const MINUTE = 60;

interface Case {
  server: RunningServer;
  owner: TestClient;
  clock: ReturnType<typeof fixedClock>;
  port: ScriptedPort;
  /** What a flow's first try fixed (a tokenized card, a preview) that its retry sends again. */
  memo: Map<string, unknown>;
}

type Answer = TestResponse<{ message?: string }>;

interface Flow {
  name: string;
  /** Whatever the flow needs that is not under test (a card for payg-co), before faults are armed. */
  prepare?: (c: Case) => Promise<void>;
  /**
   * The flow itself; answers what the customer was told. Called a second time for the web app's retry
   * after an answer of unknown outcome (a 5xx): the same request under the same Idempotency-Key.
   */
  act: (c: Case) => Promise<Answer[]>;
  /** Only the billing job runs it: no customer to retry, the job's next run is the retry. */
  unattended?: boolean;
}

const base = (slug: string) => `/platform/organizations/${slug}`;

async function once<T>(c: Case, name: string, make: () => Promise<T>): Promise<T> {
  if (!c.memo.has(name)) c.memo.set(name, await make());
  return c.memo.get(name) as T;
}

async function defaultCard(owner: TestClient, slug: string): Promise<string> {
  const response = await owner.get<{ defaultPaymentMethodId: string }>(`${base(slug)}/payments`, {
    version: '2',
  });
  return response.body.defaultPaymentMethodId;
}

async function openInvoice(c: Case, slug: string): Promise<string> {
  const row = await c.server.database.db
    .selectFrom('invoices')
    .innerJoin('organizations', 'organizations.id', 'invoices.organization_id')
    .select('invoices.id')
    .where('organizations.slug', '=', slug)
    .where('invoices.status', '=', 'open')
    .executeTakeFirstOrThrow();
  return row.id;
}

const FLOWS: Flow[] = [
  {
    name: 'add card',
    act: async ({ owner }) => {
      const answers: Answer[] = [];
      const intent = await owner.post<{ client_secret: string; message?: string }>(
        `${base('acme-team')}/payments/setup-intent`,
        { hcaptchaToken: await captchaToken(owner) },
      );
      answers.push(intent);
      if (intent.status !== 200) return answers;
      const confirmed = await confirmSetup(owner, intent.body.client_secret, CARDS.visa);
      if (confirmed.status !== 200) return [...answers, confirmed];
      answers.push(await attach(owner, 'acme-team', confirmed.body.setup_intent_id));
      return answers;
    },
  },
  {
    name: 'top-up',
    act: async (c) => [
      await c.owner.post(
        `${base('acme-pro')}/billing/credits/top-up`,
        {
          payment_method_id: await defaultCard(c.owner, 'acme-pro'),
          amount: 100,
          // A retry with the key sends the same token: the key's first request spent it.
          hcaptcha_token: await once(c, 'captcha', () => captchaToken(c.owner)),
        },
        { 'idempotency-key': 'faults-top-up' },
      ),
    ],
  },
  {
    name: 'Pay Now',
    act: async (c) => {
      const invoiceId = await openInvoice(c, 'acme-pro');
      const card = await once(c, 'card', () => paymentMethod(c.owner, CARDS.visa));
      return [
        await c.owner.post(
          `${base('acme-pro')}/billing/invoices/${invoiceId}/pay`,
          { payment_method_id: card },
          { 'idempotency-key': 'faults-pay-now' },
        ),
      ];
    },
  },
  {
    name: 'plan change',
    act: async (c) => {
      const preview = await once(c, 'preview', () =>
        c.owner.post<{ proration_date: number; message?: string }>(
          `${base('acme-pro')}/billing/subscription/preview`,
          { tier: 'tier_team' },
          { Version: '2' },
        ),
      );
      if (preview.status !== 200) return [preview];
      return [
        await c.owner.request(
          'PUT',
          `${base('acme-pro')}/billing/subscription`,
          { tier: 'tier_team', proration_date: preview.body.proration_date },
          { 'Idempotency-Key': 'faults-plan-change' },
        ),
      ];
    },
  },
  {
    name: 'spend-cap toggle',
    prepare: async ({ owner }) => {
      await addCard(owner, 'payg-co', CARDS.visa);
    },
    act: async ({ owner }) => [
      await owner.request(
        'PUT',
        `${base('payg-co')}/billing/subscription`,
        { tier: 'tier_pro' },
        { 'Idempotency-Key': 'faults-spend-cap' },
      ),
    ],
  },
  {
    name: 'cycle close',
    unattended: true,
    act: async (c) => {
      const db = c.server.database.db;
      const team = await db
        .selectFrom('subscriptions')
        .select('current_period_end')
        .where('organization_id', '=', await organizationIdOf(db, 'acme-team'))
        .executeTakeFirstOrThrow();
      // The scheduler's run once acme-team's cycle has ended and its grace for late usage passed:
      // every cycle ended by then closes and is charged.
      c.clock.set(
        new Date(team.current_period_end.getTime() + (DEFAULT_CLOSE_GRACE_MINUTES + 1) * 60_000),
      );
      await runBillingJobs(deps(c), c.clock.now());
      return [];
    },
  },
];

function deps(c: Case) {
  return { db: c.server.database.db, gateway: c.port, clock: c.clock };
}

/**
 * What production does after a fault, with the provider healthy again: the provider's late webhooks (for
 * what it did while its answer was lost) arrive before or after the billing job has asked it itself.
 */
async function heal(c: Case, webhooksFirst: boolean): Promise<void> {
  const deliver = async () => {
    for (const event of c.port.lateEvents()) await handlePaymentEvent(deps(c), event);
  };
  if (webhooksFirst) await deliver();
  // The billing job, past the callers' in-flight lease and the staleness window of open charges.
  c.clock.advance(16 * MINUTE);
  await runBillingJobs(deps(c), c.clock.now());
  if (!webhooksFirst) await deliver();
  // A refund owed by a settlement since goes out in the next run.
  c.clock.advance(MINUTE);
  await runBillingJobs(deps(c), c.clock.now());
}

/**
 * How a case goes on after the fault: the customer walks away or, told the outcome is unknown (a 5xx),
 * sends the same request again as the web app does; the late webhook comes before or after the job.
 */
interface Variant {
  retry: boolean;
  webhooksFirst: boolean;
}

function variantsOf(flow: Flow, kind: FaultKind): Variant[] {
  if (!flow.unattended) {
    return [
      { retry: false, webhooksFirst: true },
      { retry: true, webhooksFirst: false },
    ];
  }
  return kind === 'late'
    ? [
        { retry: false, webhooksFirst: true },
        { retry: false, webhooksFirst: false },
      ]
    : [{ retry: false, webhooksFirst: true }];
}

/** Success, or an error the customer can read: never a 500, never our internals. */
function unclear(answers: Answer[]): string[] {
  return answers
    .filter((answer) => answer.status >= 300)
    .filter(
      (answer) =>
        answer.status === 500 ||
        typeof answer.body.message !== 'string' ||
        /provider answered|timed out|gave up|Error|undefined|\bat \//.test(answer.body.message),
    )
    .map((answer) => `${answer.status} ${JSON.stringify(answer.body)}`);
}

describe.each(testDatabases())('faults at every provider step (%s)', (database) => {
  let worlds: FreshWorlds;
  beforeAll(async () => {
    worlds = await seedOnce(database, fixedClock(START));
  }, 120_000);
  afterAll(() => worlds.close());

  async function runCase(
    flow: Flow,
    fault: { index: number; kind: FaultKind } | null,
    variant: Variant = { retry: false, webhooksFirst: true },
  ): Promise<{ calls: string[] }> {
    const clock = fixedClock(START);
    let port: ScriptedPort | undefined;
    const server = await worlds.start({
      clock,
      wrapGateway: (gateway) => (port = new ScriptedPort(gateway, (s) => clock.advance(s))),
    });
    try {
      if (!port) throw new Error('no payment port');
      const owner = new TestClient(server.url);
      const signedIn = await owner.post('/platform/auth/sign-in', {
        email: 'owner@example.com',
        password: 'billing-demo-2026',
      });
      expect(signedIn.status).toBe(200);
      const c: Case = { server, owner, clock, port, memo: new Map() };
      const opening = await openingOf(server.database.db);
      await flow.prepare?.(c);
      port.arm(fault);
      const answers = await flow.act(c);
      const calls = [...port.calls];
      port.arm(null);
      if (variant.retry && answers.some((answer) => answer.status >= 500)) {
        answers.push(...(await flow.act(c)));
      }
      await heal(c, variant.webhooksFirst);
      await assertNoHalfState(server.database.db, opening);
      expect(unclear(answers)).toEqual([]);
      return { calls };
    } finally {
      await server.close();
    }
  }

  for (const flow of FLOWS) {
    it(`${flow.name}: every call × every fault leaves no half state`, async ({ annotate }) => {
      const clean = await runCase(flow, null);
      expect(clean.calls.length, `${flow.name} makes no provider call`).toBeGreaterThan(0);
      const failures: string[] = [];
      let cases = 1;
      for (const [index, call] of clean.calls.entries()) {
        for (const kind of FAULT_KINDS) {
          for (const variant of variantsOf(flow, kind)) {
            cases++;
            try {
              await runCase(flow, { index, kind }, variant);
            } catch (error) {
              const detail = error as Error & { actual?: unknown };
              const label = `${call} #${index} ${kind}${variant.retry ? ', retried' : ''}${variant.webhooksFirst ? '' : ', webhook after the job'}`;
              failures.push(`${label}: ${JSON.stringify(detail.actual ?? detail.message)}`);
            }
          }
        }
      }
      await annotate(`${clean.calls.join(', ')}: ${cases} cases`);
      expect(failures).toEqual([]);
    }, 300_000);
  }
});
