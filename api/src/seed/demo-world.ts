import { addMonthsClamped, DEFAULT_FREE_PROJECT_LIMIT, projectRef } from '@meterline/domain';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { hashPassword } from '../services/auth/password.ts';
import { PaymentSimulator } from '../adapters/simulator/simulator.ts';
import { ingestUsageEvents } from '../services/usage/ingest-usage-events.ts';
import { liveThroughHistory, type SeededOrganization } from './demo-billing.ts';
import { seedDemoCustomer } from './demo-customers.ts';
import { demoUsageEvents, type DemoUsageProject } from './demo-usage.ts';
import {
  DEMO_ORGANIZATIONS,
  DEMO_PASSWORD,
  DEMO_USERS,
  type DemoOrganization,
} from './demo-world-data.ts';

const DAY = 86_400;
const SEEDED_MARKER = 'demo_world_seeded_at';

// One hash serves every demo user: they share the published demo password anyway, and seeding stays fast.
let demoHash: Promise<string> | undefined;
function demoPasswordHash(): Promise<string> {
  demoHash ??= hashPassword(DEMO_PASSWORD);
  return demoHash;
}

const startOfUtcDay = (unix: number) => Math.floor(unix / DAY) * DAY;
const date = (unix: number) => new Date(unix * 1000);

/** Seeded means the whole demo world was written; a seeding cut short is done again. */
export async function isSeeded(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', SEEDED_MARKER)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Seeds (or resets) the demo world. Users keep their ids, so their sessions survive a reset; the demo
 * organizations are deleted and created again, and their past is lived through by the real billing engine:
 * usage is ingested, cycles close into invoices, cards are charged through the payment simulator.
 */
export async function seedDemoWorld(db: Db, clock: Clock): Promise<void> {
  const passwordHash = await demoPasswordHash();
  const seededAt = Math.floor(clock.now().getTime() / 1000);
  await db.deleteFrom('app_meta').where('key', '=', SEEDED_MARKER).execute();

  const organizations = await db.transaction().execute(async (trx) => {
    const userIds = new Map<string, string>();
    for (const user of DEMO_USERS) {
      const values = {
        name: user.name,
        password_hash: passwordHash,
        free_project_limit: user.freeProjectLimit ?? DEFAULT_FREE_PROJECT_LIMIT,
      };
      const row = await trx
        .insertInto('users')
        .values({ email: user.email, ...values })
        .onConflict((conflict) => conflict.column('email').doUpdateSet(values))
        .returning('id')
        .executeTakeFirstOrThrow();
      userIds.set(user.email, row.id);
    }
    const slugs = DEMO_ORGANIZATIONS.map((org) => org.slug);
    // The raw usage log has no foreign keys (migration 0007): its events go first, by hand.
    await trx
      .deleteFrom('usage_events')
      .where('organization_id', 'in', (qb) =>
        qb.selectFrom('organizations').select('id').where('slug', 'in', slugs),
      )
      .execute();
    await trx.deleteFrom('organizations').where('slug', 'in', slugs).execute();
    const seeded: SeededOrganization[] = [];
    for (const demo of DEMO_ORGANIZATIONS) {
      seeded.push(await insertOrganization(trx, demo, userIds, seededAt));
    }
    return seeded;
  });

  for (const org of organizations) {
    const events = await usageOf(db, org, seededAt);
    for (let index = 0; index < events.length; index += 5_000) {
      await ingestUsageEvents(db, events.slice(index, index + 5_000));
    }
  }

  let storyNow = date(seededAt);
  const simulator = new PaymentSimulator(db, () => storyNow);
  await liveThroughHistory(db, simulator, (at) => (storyNow = at), organizations, seededAt);
  // The demo world's past is not news: the mail its history decided is not kept, nor sent.
  await db
    .deleteFrom('email_outbox')
    .where(
      'organization_id',
      'in',
      organizations.map((org) => org.id),
    )
    .execute();
  // The world's restriction states are as demo-world.md writes them: its usage counts as observed.
  await db
    .updateTable('organizations')
    .set((eb) => ({
      usage_observed_version: eb
        .selectFrom('subscriptions')
        .select('subscriptions.billing_version')
        .whereRef('subscriptions.organization_id', '=', 'organizations.id'),
    }))
    .where(
      'id',
      'in',
      organizations.map((org) => org.id),
    )
    .execute();

  await db
    .insertInto('app_meta')
    .values({ key: SEEDED_MARKER, value: String(seededAt) })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value: String(seededAt) }))
    .execute();
}

async function insertOrganization(
  db: Db,
  demo: DemoOrganization,
  userIds: Map<string, string>,
  seededAt: number,
): Promise<SeededOrganization> {
  const restriction = demo.restriction;
  const graceEnd =
    restriction?.graceEndInDays === null || restriction === undefined
      ? null
      : seededAt + restriction.graceEndInDays * DAY;
  const currentStart = startOfUtcDay(seededAt - (demo.cycleStartedDaysAgo ?? 12) * DAY);
  const anchor = addMonthsClamped(currentStart, -(demo.history ?? 0));
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
      created_at: date(anchor),
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  await seedDemoCustomer(db, org.id, demo.slug);

  for (const [email, role] of demo.members) {
    const userId = userIds.get(email);
    if (!userId) throw new Error(`Demo member ${email} is not a demo user`);
    await db
      .insertInto('memberships')
      .values({ organization_id: org.id, user_id: userId, role })
      .execute();
  }

  // The subscription starts at the anchor; living through the history moves it to the current cycle.
  await db
    .insertInto('subscriptions')
    .values({
      organization_id: org.id,
      plan_id: demo.plan,
      usage_billing_enabled: demo.usageBillingEnabled,
      billing_via_partner: demo.billingPartner !== undefined,
      billing_partner: demo.billingPartner ?? null,
      payment_method_type: demo.paymentMethodType ?? 'card',
      billing_cycle_anchor: date(anchor),
      current_period_start: date(anchor),
      current_period_end: date(addMonthsClamped(anchor, 1)),
      created_at: date(anchor),
    })
    .execute();

  for (const [index, project] of demo.projects.entries()) {
    const number = index + 1;
    const inserted = await db
      .insertInto('projects')
      .values({
        organization_id: org.id,
        ref: projectRef(demo.slug, number),
        name: `${demo.name} Project ${number}`,
        status: project.status,
        compute_size: project.computeSize,
        created_at: date(anchor),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (demo.usage === 'acme') await addAcmeExtras(db, org.id, inserted.id, number, anchor);
  }
  return { id: org.id, demo, anchor, currentStart };
}

/** acme-pro: a read replica on project 1, branches on project 2, a custom domain on project 1. */
async function addAcmeExtras(
  db: Db,
  organizationId: string,
  projectId: string,
  number: number,
  anchor: number,
): Promise<void> {
  if (number === 1) {
    await db
      .insertInto('project_compute_resources')
      .values({
        organization_id: organizationId,
        project_id: projectId,
        kind: 'read_replica',
        compute_size: 'small',
        started_at: date(anchor),
      })
      .execute();
    await db
      .insertInto('project_addons')
      .values({
        organization_id: organizationId,
        project_id: projectId,
        addon: 'CUSTOM_DOMAIN',
        variant: 'cd_default',
        started_at: date(anchor),
      })
      .execute();
  }
  if (number === 2) {
    await db
      .insertInto('project_compute_resources')
      .values({
        organization_id: organizationId,
        project_id: projectId,
        kind: 'branch',
        compute_size: 'micro',
        started_at: date(anchor),
      })
      .execute();
  }
}

async function usageOf(db: Db, org: SeededOrganization, seededAt: number) {
  const projects = await db
    .selectFrom('projects')
    .select(['ref', 'compute_size', 'status'])
    .where('organization_id', '=', org.id)
    .orderBy('ref')
    .execute();
  const usageProjects: DemoUsageProject[] = projects.map((project, index) => ({
    ref: project.ref,
    computeSize: project.compute_size,
    active: project.status === 'ACTIVE_HEALTHY',
    ...(org.demo.usage === 'acme' && index === 0 ? { readReplica: 'small' as const } : {}),
    ...(org.demo.usage === 'acme' && index === 1 ? { branchHoursPerDay: 6 } : {}),
  }));
  return demoUsageEvents(
    org.demo.slug,
    org.demo.usage ?? 'light',
    org.demo.plan !== 'free',
    usageProjects,
    org.anchor,
    seededAt,
  );
}
