import { addMonthsClamped } from '@meterline/domain';
import type { Db } from '../../src/db/database.ts';
import { insertPaymentMethod } from '../../src/repositories/payment-methods.ts';
import { newId } from '../../src/lib/ids.ts';
import type { PaymentGateway } from '../../src/adapters/payment-gateway.ts';
import { CARDS } from './payments.ts';

export interface FreshOrganization {
  organizationId: string;
  slug: string;
  /** Its one project, active on Medium compute. */
  projectRef: string;
  /** The saved cards: 4242 (the default) and 4000 0025 0000 3155 (asks for 3-D Secure). */
  cards: { visa: string; authenticate: string };
}

/**
 * A new Pro organization beside the demo world, as the seed makes one: a subscription whose cycle
 * starts at `anchor`, one active project, owner@example.com its owner, a default card 4242 and a
 * saved 3-D Secure card. Each case of a generated test gets its own, on one server.
 */
export async function createProOrganization(
  server: { database: { db: Db }; gateway: PaymentGateway },
  options: { slug: string; projectRef: string; anchor: Date; usageBillingEnabled: boolean },
): Promise<FreshOrganization> {
  const db = server.database.db;
  const org = await db
    .insertInto('organizations')
    .values({ slug: options.slug, name: `Org ${options.slug}`, managed_by: 'platform' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const anchor = Math.floor(options.anchor.getTime() / 1000);
  await db
    .insertInto('subscriptions')
    .values({
      organization_id: org.id,
      plan_id: 'pro',
      usage_billing_enabled: options.usageBillingEnabled,
      billing_via_partner: false,
      billing_partner: null,
      payment_method_type: 'card',
      billing_cycle_anchor: options.anchor,
      current_period_start: options.anchor,
      current_period_end: new Date(addMonthsClamped(anchor, 1) * 1000),
      created_at: options.anchor,
    })
    .execute();
  const projectRef = options.projectRef;
  await db
    .insertInto('projects')
    .values({
      organization_id: org.id,
      ref: projectRef,
      name: `Org ${options.slug} Project 1`,
      status: 'ACTIVE_HEALTHY',
      compute_size: 'medium',
      created_at: options.anchor,
    })
    .execute();
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'owner@example.com')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('memberships')
    .values({ organization_id: org.id, user_id: owner.id, role: 'owner' })
    .execute();
  const saveCard = async (number: string, isDefault: boolean) => {
    const card = await server.gateway.createCard({
      number,
      expMonth: 12,
      expYear: options.anchor.getUTCFullYear() + 5,
      cvc: '123',
    });
    const id = newId('pm');
    await insertPaymentMethod(db, {
      id,
      organizationId: org.id,
      provider: server.gateway.provider,
      providerPaymentMethodId: card.providerPaymentMethodId,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      isDefault,
      createdAt: options.anchor,
    });
    return id;
  };
  const visa = await saveCard(CARDS.visa, true);
  const authenticate = await saveCard(CARDS.authenticate, false);
  return { organizationId: org.id, slug: options.slug, projectRef, cards: { visa, authenticate } };
}
