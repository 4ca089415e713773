import { projectRef } from '@meterline/domain';
import { sql } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { hashPassword } from '../services/auth/password.ts';
import {
  DEMO_ORGANIZATIONS,
  DEMO_PASSWORD,
  DEMO_USERS,
  type DemoOrganization,
} from './demo-world-data.ts';

const DAY_MS = 86_400_000;

// One hash serves every demo user: they share the published demo password anyway, and seeding stays fast.
let demoHash: Promise<string> | undefined;
function demoPasswordHash(): Promise<string> {
  demoHash ??= hashPassword(DEMO_PASSWORD);
  return demoHash;
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function addUtcMonths(date: Date, months: number): Date {
  const result = new Date(date);
  result.setUTCMonth(result.getUTCMonth() + months);
  return result;
}

export async function isSeeded(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select(sql<number>`count(*)::int`.as('count'))
    .executeTakeFirst();
  return (row?.count ?? 0) > 0;
}

/**
 * Seeds (or resets) the demo world: users keep their ids, so their sessions survive a reset; the demo
 * organizations are deleted and created again with everything that hangs off them.
 */
export async function seedDemoWorld(db: Db, clock: Clock): Promise<void> {
  const passwordHash = await demoPasswordHash();
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const userIds = new Map<string, string>();
    for (const user of DEMO_USERS) {
      const row = await trx
        .insertInto('users')
        .values({
          email: user.email,
          name: user.name,
          password_hash: passwordHash,
          free_project_limit: user.freeProjectLimit ?? 2,
        })
        .onConflict((conflict) =>
          conflict.column('email').doUpdateSet({
            name: user.name,
            password_hash: passwordHash,
            free_project_limit: user.freeProjectLimit ?? 2,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      userIds.set(user.email, row.id);
    }

    await trx
      .deleteFrom('organizations')
      .where(
        'slug',
        'in',
        DEMO_ORGANIZATIONS.map((org) => org.slug),
      )
      .execute();

    for (const demo of DEMO_ORGANIZATIONS) {
      await insertOrganization(trx, demo, userIds, now);
    }
  });
}

async function insertOrganization(
  db: Db,
  demo: DemoOrganization,
  userIds: Map<string, string>,
  now: Date,
): Promise<void> {
  const restriction = demo.restriction;
  const graceEnd =
    restriction?.graceEndInDays === null || restriction === undefined
      ? null
      : Math.floor((now.getTime() + restriction.graceEndInDays * DAY_MS) / 1000);
  const org = await db
    .insertInto('organizations')
    .values({
      slug: demo.slug,
      name: demo.name,
      billing_email: demo.billingEmail ?? null,
      additional_billing_emails: demo.additionalBillingEmails ?? [],
      managed_by: demo.managedBy ?? 'platform',
      partner_id: demo.partnerId ?? null,
      restriction_status: restriction?.status ?? null,
      restriction_data: restriction
        ? JSON.stringify({ grace_period_end: graceEnd, violations: restriction.violations })
        : null,
      has_oriole_project: demo.hasOrioleProject ?? false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  for (const [email, role] of demo.members) {
    const userId = userIds.get(email);
    if (!userId) throw new Error(`Demo member ${email} is not a demo user`);
    await db
      .insertInto('memberships')
      .values({ organization_id: org.id, user_id: userId, role })
      .execute();
  }

  // The cycle is anchored twelve days before seeding, so every organization is mid-cycle.
  const periodStart = startOfUtcDay(new Date(now.getTime() - 12 * DAY_MS));
  await db
    .insertInto('subscriptions')
    .values({
      organization_id: org.id,
      plan_id: demo.plan,
      usage_billing_enabled: demo.usageBillingEnabled,
      billing_via_partner: demo.billingPartner !== undefined,
      billing_partner: demo.billingPartner ?? null,
      payment_method_type: demo.paymentMethodType ?? 'card',
      current_period_start: periodStart,
      current_period_end: addUtcMonths(periodStart, 1),
    })
    .execute();

  for (const [index, project] of demo.projects.entries()) {
    const number = index + 1;
    await db
      .insertInto('projects')
      .values({
        organization_id: org.id,
        ref: projectRef(demo.slug, number),
        name: `${demo.name} Project ${number}`,
        status: project.status,
        compute_size: project.computeSize,
      })
      .execute();
  }
}
