import { addMonthsClamped } from '@meterline/domain';
import type { Db } from '../db/database.ts';
import { insertPaymentMethod } from '../repositories/payment-methods.ts';
import { newId } from '../lib/ids.ts';
import { closesAt, DEFAULT_CLOSE_GRACE_MINUTES } from '../lib/close-grace.ts';
import { runBillingJobs } from '../services/billing/run-billing-jobs.ts';
import { OVERDUE_AFTER_DAYS } from '../services/restrictions/restrictions.ts';
import { OPERATOR_CLI, type AuditContext } from '../repositories/record-audit.ts';
import {
  deletePaymentMethod,
  setDefaultPaymentMethod,
} from '../services/payment-methods/payment-methods.ts';
import { voidInvoice } from '../services/invoices/void-invoice.ts';
import type { PaymentSimulator } from '../adapters/simulator/simulator.ts';
import type { DemoOrganization } from './demo-world-data.ts';

const DAY = 86_400;
/** Who acts in a story's own moves (the owner of every acme-* organization). */
const DEMO_OWNER_EMAIL = 'owner@example.com';

export interface SeededOrganization {
  id: string;
  demo: DemoOrganization;
  anchor: number;
  currentStart: number;
}

/** Something that happens in an organization's story at a moment, before the billing job runs then. */
interface Happening {
  at: number;
  run(): Promise<void>;
}

interface SeedContext {
  db: Db;
  /** The demo's cards are the simulator's test cards, saved for their organization. */
  gateway: PaymentSimulator;
  /** The moving clock of the story; the simulator reads it too. */
  setNow(at: number): void;
  now: number;
}

async function addCard(
  context: SeedContext,
  organizationId: string,
  number: string,
  expires: { month: number; year: number },
  isDefault: boolean,
): Promise<string> {
  const card = await context.gateway.createCard({
    number,
    expMonth: expires.month,
    expYear: expires.year,
    cvc: '123',
  });
  await context.gateway.attachPaymentMethod(card.providerPaymentMethodId, organizationId);
  const id = newId('pm');
  await insertPaymentMethod(context.db, {
    id,
    organizationId,
    provider: context.gateway.provider,
    providerPaymentMethodId: card.providerPaymentMethodId,
    brand: card.brand,
    last4: card.last4,
    expMonth: card.expMonth,
    expYear: card.expYear,
    hasAddress: card.hasAddress,
    isDefault,
    createdAt: new Date(context.now * 1000),
  });
  return id;
}

function expiryIn(now: number, months: number): { month: number; year: number } {
  const date = new Date(now * 1000);
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + months;
  return { year: Math.floor(total / 12), month: (total % 12) + 1 };
}

/** The cards and events of each organization's story, as moments in time. */
function storyOf(context: SeedContext, org: SeededOrganization, seededAt: number): Happening[] {
  const { db } = context;
  const { id, demo, anchor } = org;
  const twoYears = expiryIn(seededAt, 24);
  switch (demo.cards) {
    case 'standard':
      return [
        {
          at: anchor,
          run: async () => void (await addCard(context, id, '4242424242424242', twoYears, true)),
        },
      ];
    case 'declining':
      return [
        {
          at: anchor,
          run: async () => void (await addCard(context, id, '4000000000000002', twoYears, true)),
        },
      ];
    case 'acme-pro': {
      // The original Visa pays eleven invoices. Before the twelfth the company switches to a card with
      // insufficient funds: the twelfth fails and is forgiven, the thirteenth fails and is still open.
      // Today the owner makes the Visa default again and removes the failing card, through the same
      // services as the billing page, so the audit log records both.
      let visa = '';
      let failing = '';
      const twelfthClose = addMonthsClamped(anchor, 12);
      return [
        {
          at: anchor,
          run: async () =>
            void (visa = await addCard(context, id, '4242424242424242', twoYears, true)),
        },
        {
          at: anchor + 200 * DAY,
          run: async () =>
            void (await addCard(context, id, '5555555555554444', expiryIn(seededAt, 0), false)),
        },
        {
          at: twelfthClose - DAY,
          run: async () =>
            void (failing = await addCard(context, id, '4000000000009995', twoYears, true)),
        },
        {
          at: twelfthClose + 8 * DAY,
          run: async () => {
            const twelfth = await db
              .selectFrom('invoices')
              .select('id')
              .where('organization_id', '=', id)
              .where('period_end', '=', new Date(twelfthClose * 1000))
              .executeTakeFirstOrThrow();
            await voidInvoice(
              storyDeps(context),
              twelfth.id,
              new Date(context.now * 1000),
              OPERATOR_CLI,
            );
          },
        },
        {
          at: seededAt,
          run: async () => {
            const owner = await db
              .selectFrom('users')
              .select(['id', 'email'])
              .where('email', '=', DEMO_OWNER_EMAIL)
              .executeTakeFirstOrThrow();
            const audit: AuditContext = {
              actor: { type: 'user', id: owner.id, email: owner.email },
              ip: null,
              user_agent: null,
            };
            const deps = storyDeps(context);
            await setDefaultPaymentMethod(deps, {
              organizationId: id,
              paymentMethodId: visa,
              audit,
            });
            await deletePaymentMethod(deps, {
              organizationId: id,
              paymentMethodId: failing,
              audit,
            });
          },
        },
      ];
    }
    default:
      return [];
  }
}

/** The story's own clock is the wall clock of everything that happens in it. */
function storyDeps(context: SeedContext) {
  return {
    db: context.db,
    gateway: context.gateway,
    clock: { now: () => new Date(context.now * 1000) },
  };
}

/**
 * Lives through the organizations' past, a day at a time, with the real billing job: cycles close into
 * invoices, cards are charged through the payment port, failed charges are retried and overdue
 * organizations restricted, exactly as they would be in production.
 */
export async function liveThroughHistory(
  db: Db,
  gateway: PaymentSimulator,
  setNow: (at: Date) => void,
  organizations: readonly SeededOrganization[],
  seededAt: number,
): Promise<void> {
  const context: SeedContext = {
    db,
    gateway,
    now: seededAt,
    setNow(at) {
      context.now = at;
      setNow(new Date(at * 1000));
    },
  };
  const happenings = organizations
    .flatMap((org) => storyOf(context, org, seededAt))
    .sort((a, b) => a.at - b.at);
  // Jump from one moment where something can happen to the next: a story event, a cycle end, a payment
  // retry, or an invoice turning overdue.
  let at = Math.min(seededAt, ...organizations.map((org) => org.anchor));
  let next = 0;
  for (;;) {
    while (next < happenings.length && (happenings[next]?.at ?? Infinity) <= at) {
      const happening = happenings[next++];
      if (!happening) break;
      context.setNow(happening.at);
      await happening.run();
    }
    context.setNow(at);
    // The demo world types in the restriction each organization shows (demo-world.md): the replay of
    // its past does not observe usage, which would decide them again.
    await runBillingJobs(storyDeps(context), new Date(at * 1000), undefined, undefined, {
      observeUsage: false,
    });
    if (at >= seededAt) break;
    const upcoming = await nextBillingMoment(db, at);
    at = Math.min(seededAt, happenings[next]?.at ?? Infinity, upcoming ?? Infinity);
  }
  for (const org of organizations) {
    if (org.demo.creditBalanceCents) {
      await db
        .updateTable('subscriptions')
        .set({ customer_balance_cents: org.demo.creditBalanceCents })
        .where('organization_id', '=', org.id)
        .execute();
    }
  }
}

/** The earliest moment at which the billing job would have something to do. */
async function nextBillingMoment(db: Db, after: number): Promise<number | null> {
  const [cycle, attempt, overdue] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select((eb) => eb.fn.min('current_period_end').as('at'))
      .executeTakeFirst(),
    db
      .selectFrom('invoices')
      .select((eb) => eb.fn.min('next_payment_attempt_at').as('at'))
      .where('status', '=', 'open')
      .executeTakeFirst(),
    db
      .selectFrom('invoices')
      .select((eb) => eb.fn.min('finalized_at').as('at'))
      .where('status', '=', 'open')
      .where('finalized_at', '>', new Date((after - OVERDUE_AFTER_DAYS * DAY) * 1000))
      .executeTakeFirst(),
  ]);
  // A cycle closes once the grace for late usage has passed, as in production.
  const moments = [
    cycle?.at ? closesAt(cycle.at, DEFAULT_CLOSE_GRACE_MINUTES) : null,
    attempt?.at,
    overdue?.at ? new Date(overdue.at.getTime() + OVERDUE_AFTER_DAYS * DAY * 1000) : null,
  ]
    .filter((value): value is Date => value instanceof Date)
    .map((value) => Math.floor(value.getTime() / 1000))
    .filter((moment) => moment > after);
  return moments.length > 0 ? Math.min(...moments) : null;
}
