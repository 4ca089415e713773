import { expect } from 'vitest';
import type { Db } from '../../src/db/database.ts';

/**
 * What the store held before a case: for each organization the part of its credit balance that no row
 * explains (the demo world types balances in), its plan and spend cap, and the changes applied so far.
 */
export type Opening = Map<
  string,
  {
    unexplainedCents: number;
    plan: string;
    usageBillingEnabled: boolean;
    scheduled: boolean;
    appliedChanges: Set<string>;
  }
>;

export async function openingOf(db: Db): Promise<Opening> {
  const world = await read(db);
  const opening: Opening = new Map();
  for (const subscription of world.subscriptions) {
    const org = subscription.organization_id;
    opening.set(org, {
      unexplainedCents: subscription.customer_balance_cents - ledgerOf(world, org),
      plan: subscription.plan_id,
      usageBillingEnabled: subscription.usage_billing_enabled,
      scheduled: subscription.scheduled_plan_id !== null,
      appliedChanges: new Set(
        world.changes
          .filter((change) => change.organization_id === org && change.status === 'applied')
          .map((change) => change.id),
      ),
    });
  }
  return opening;
}

/**
 * The one invariant of money at rest, run after every fault case once the product has healed what it
 * heals (webhooks, the billing job): no half state. It reads our tables and the provider's record (the
 * simulator's tables: what the provider did), and fails listing every breach it finds.
 */
export async function assertNoHalfState(db: Db, opening: Opening): Promise<void> {
  const world = await read(db);
  const problems: string[] = [];
  const intentOf = (charge: ChargeRow) =>
    world.intents.find((intent) =>
      charge.provider_ref
        ? intent.id === charge.provider_ref
        : intent.idempotency_key === charge.idempotency_key,
    );
  const kept = (charge: ChargeRow) =>
    charge.status === 'succeeded' && charge.refund_status === null;

  // Every charge settled, or reconcilable; and what it says agrees with what the provider did.
  for (const charge of world.charges) {
    const intent = intentOf(charge);
    const label = `charge ${charge.id} (${charge.purpose}, ${charge.status})`;
    if (charge.status === 'succeeded') {
      if (intent?.status !== 'succeeded') problems.push(`${label}: the provider took no money`);
      const refunded = Number(intent?.refunded_cents ?? 0);
      if (charge.refund_status === 'pending') problems.push(`${label}: a refund still owed`);
      if (charge.refund_status === 'succeeded' && refunded !== charge.amount_cents) {
        problems.push(`${label}: marked refunded, the provider gave back ${refunded}`);
      }
      if (charge.refund_status === null && refunded !== 0) {
        problems.push(`${label}: refunded at the provider, not here`);
      }
    } else if (charge.status === 'failed') {
      if (intent?.status === 'succeeded') problems.push(`${label}: the provider took the money`);
    } else {
      // Open: reconcilable only while the provider has not ended it (else the job would have settled it).
      if (intent && (intent.status === 'succeeded' || intent.status === 'failed')) {
        problems.push(`${label}: left open though the provider ended it (${intent.status})`);
      }
      if (!charge.provider_ref && !charge.idempotency_key)
        problems.push(`${label}: no key to ask by`);
    }
  }
  // Every payment the provider took is one of our charges.
  for (const intent of world.intents.filter((row) => row.status === 'succeeded')) {
    const charge = world.charges.find(
      (row) => row.provider_ref === intent.id || row.idempotency_key === intent.idempotency_key,
    );
    if (!charge)
      problems.push(`intent ${intent.id} (${intent.idempotency_key}): money with no charge`);
  }

  // Every balance is its ledger.
  for (const subscription of world.subscriptions) {
    const org = subscription.organization_id;
    const before = opening.get(org);
    if (!before) continue;
    const expected = before.unexplainedCents + ledgerOf(world, org);
    if (subscription.customer_balance_cents !== expected) {
      problems.push(
        `organization ${org}: balance ${subscription.customer_balance_cents}, ledger ${expected}`,
      );
    }
  }

  // No invoice paid twice; what the card paid is what the invoice says was paid.
  for (const invoice of world.invoices) {
    const charges = world.charges.filter((charge) => charge.invoice_id === invoice.id);
    const paying = charges.filter(kept);
    const label = `invoice ${invoice.id} (${invoice.status})`;
    if (paying.length > 1) problems.push(`${label}: paid by ${paying.length} charges`);
    if (invoice.status !== 'paid' && paying.length > 0) problems.push(`${label}: a charge paid it`);
    const taken = charges
      .map(intentOf)
      .filter((intent) => intent?.status === 'succeeded')
      .reduce(
        (sum, intent) => sum + Number(intent?.amount_cents) - Number(intent?.refunded_cents),
        0,
      );
    const owed = paying.length > 0 ? invoice.amount_paid_cents : 0;
    if (taken !== owed) problems.push(`${label}: the provider kept ${taken}, it records ${owed}`);
    // Paid with money due: by exactly one payment that kept it (its own charge, or its change's).
    const byChange = world.changes.find((change) => change.invoice_id === invoice.id);
    const changeCharge =
      byChange && world.charges.find((row) => row.plan_change_id === byChange.id);
    const payments = paying.length + (changeCharge && kept(changeCharge) ? 1 : 0);
    if (
      invoice.status === 'paid' &&
      invoice.amount_due_cents > 0 &&
      !invoice.billed_via_partner &&
      payments !== 1
    ) {
      problems.push(`${label}: paid ${invoice.amount_due_cents} by ${payments} payments`);
    }
    if (invoice.status === 'paid' && invoice.amount_paid_cents !== invoice.amount_due_cents) {
      problems.push(`${label}: paid ${invoice.amount_paid_cents} of ${invoice.amount_due_cents}`);
    }
  }

  // A paid change (plan or spend cap) is applied if and only if its charge succeeded.
  for (const change of world.changes) {
    const label = `${change.kind} change ${change.id} (${change.status})`;
    const charge = world.charges.find((row) => row.plan_change_id === change.id);
    if (change.charge_today_cents > 0) {
      if (!charge) problems.push(`${label}: no charge`);
      else if (change.status === 'applied' && !kept(charge)) {
        problems.push(`${label}: applied, its charge ${charge.status}`);
      } else if (
        change.status === 'pending' &&
        (charge.status === 'succeeded' || charge.status === 'failed')
      ) {
        problems.push(`${label}: pending, its charge ${charge.status}`);
      } else if ((change.status === 'failed' || change.status === 'expired') && kept(charge)) {
        problems.push(`${label}: not applied, its charge kept the money`);
      }
    }
    const toggled = world.toggles.some((toggle) => toggle.plan_change_id === change.id);
    if (change.kind === 'spend_cap' && toggled !== (change.status === 'applied')) {
      problems.push(`${label}: ${toggled ? 'a' : 'no'} toggle recorded`);
    }
    const invoiced = change.invoice_id !== null;
    if (change.status !== 'applied' && invoiced) problems.push(`${label}: invoiced`);
    if (change.kind === 'plan' && change.status === 'applied' && !invoiced) {
      problems.push(`${label}: applied without its invoice`);
    }
  }
  // The subscription is what its last applied change made it, or as it was.
  for (const subscription of world.subscriptions) {
    const before = opening.get(subscription.organization_id);
    if (!before || before.scheduled) continue;
    const applied = world.changes
      .filter(
        (change) =>
          change.organization_id === subscription.organization_id &&
          change.status === 'applied' &&
          !before.appliedChanges.has(change.id),
      )
      .sort((a, b) => Number(a.resolved_at) - Number(b.resolved_at));
    const last = applied.at(-1);
    const expected = last
      ? { plan: last.to_plan, usageBillingEnabled: last.to_usage_billing_enabled }
      : { plan: before.plan, usageBillingEnabled: before.usageBillingEnabled };
    const actual = {
      plan: subscription.plan_id,
      usageBillingEnabled: subscription.usage_billing_enabled,
    };
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push(
        `organization ${subscription.organization_id}: is ${JSON.stringify(actual)}, its changes say ${JSON.stringify(expected)}`,
      );
    }
  }

  // Cards: recorded only when the provider saved them for the organization; one default where any.
  for (const card of world.cards) {
    const atProvider = world.providerCards.find(
      (row) => row.id === card.provider_payment_method_id,
    );
    if (atProvider?.customer !== card.organization_id || atProvider.detached_at !== null) {
      problems.push(`card ${card.id}: not the organization's at the provider`);
    }
  }
  const orgsWithCards = new Set(world.cards.map((card) => card.organization_id));
  for (const org of orgsWithCards) {
    const defaults = world.cards.filter((card) => card.organization_id === org && card.is_default);
    if (defaults.length !== 1)
      problems.push(`organization ${org}: ${defaults.length} default cards`);
  }
  for (const setup of world.setups) {
    const atProvider = world.providerSetups.find(
      (row) => row.id === setup.provider_setup_intent_id,
    );
    if (atProvider?.status === 'succeeded' && setup.status !== 'recorded') {
      problems.push(`setup ${setup.id}: saved at the provider, its card not recorded`);
    }
    if (setup.status === 'recorded' && atProvider?.status !== 'succeeded') {
      problems.push(`setup ${setup.id}: recorded, not saved at the provider`);
    }
  }
  expect(problems).toEqual([]);
}

type World = Awaited<ReturnType<typeof read>>;
type ChargeRow = World['charges'][number];

/** What explains a balance: top-ups bought, credit spent on invoices, credit a downgrade gave. */
function ledgerOf(world: World, org: string): number {
  const toppedUp = world.charges
    .filter(
      (row) =>
        row.organization_id === org && row.purpose === 'top_up' && row.status === 'succeeded',
    )
    .reduce((sum, row) => sum + row.amount_cents, 0);
  const spent = world.invoices
    .filter((row) => row.organization_id === org && row.status !== 'void')
    .reduce((sum, row) => sum + row.credit_applied_cents, 0);
  const given = world.changes
    .filter(
      (row) =>
        row.organization_id === org &&
        row.kind === 'plan' &&
        row.status === 'applied' &&
        !row.billed_via_partner &&
        row.total_cents < 0,
    )
    .reduce((sum, row) => sum - row.total_cents, 0);
  return toppedUp - spent + given;
}

async function read(db: Db) {
  const [
    subscriptions,
    charges,
    intents,
    invoices,
    changes,
    toggles,
    cards,
    providerCards,
    setups,
    providerSetups,
  ] = await Promise.all([
    db
      .selectFrom('subscriptions')
      .select([
        'organization_id',
        'customer_balance_cents',
        'plan_id',
        'usage_billing_enabled',
        'scheduled_plan_id',
      ])
      .execute(),
    db.selectFrom('charges').selectAll().execute(),
    db.selectFrom('simulator_payment_intents').selectAll().execute(),
    db
      .selectFrom('invoices')
      .select([
        'id',
        'organization_id',
        'status',
        'credit_applied_cents',
        'amount_due_cents',
        'amount_paid_cents',
        'billed_via_partner',
      ])
      .execute(),
    db
      .selectFrom('plan_changes')
      .select([
        'id',
        'organization_id',
        'kind',
        'status',
        'to_plan',
        'to_usage_billing_enabled',
        'charge_today_cents',
        'total_cents',
        'billed_via_partner',
        'invoice_id',
        'resolved_at',
      ])
      .execute(),
    db.selectFrom('spend_cap_toggles').select(['plan_change_id']).execute(),
    db.selectFrom('payment_methods').selectAll().execute(),
    db.selectFrom('simulator_payment_methods').select(['id', 'customer', 'detached_at']).execute(),
    db.selectFrom('setup_intents').selectAll().execute(),
    db.selectFrom('simulator_setup_intents').select(['id', 'status']).execute(),
  ]);
  return {
    subscriptions,
    charges,
    intents,
    invoices,
    changes,
    toggles,
    cards,
    providerCards,
    setups,
    providerSetups,
  };
}
