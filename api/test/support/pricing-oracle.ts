import { sql } from 'kysely';
import type { Db } from '../../src/db/database.ts';

/**
 * An independent reading of pricing.md for the tests: prices typed from the price list, arithmetic in
 * integers, each line rounded half up once. It shares no code with the engine it checks.
 */
export const PRICE = {
  proPlanCents: 2500,
  computeCreditsCents: 1000,
  // thousandths of a cent per hour
  hourly: { micro: 1344, small: 2060, medium: 8220, branch: 1344 } as Record<string, number>,
  customDomainMonthlyCents: 1000,
  egress: { includedBytes: 250_000_000_000n, centsPerGB: 9n },
  databaseSize: { includedBytes: 8_000_000_000n, tenthsOfCentPerGB: 125n },
  monthlyActiveUsers: { included: 100_000n, thousandthsOfCentPerUser: 325n },
};

const METRIC_SIZE: Record<string, string> = {
  COMPUTE_HOURS_XS: 'micro',
  COMPUTE_HOURS_SM: 'small',
  COMPUTE_HOURS_MD: 'medium',
  COMPUTE_HOURS_BRANCH: 'branch',
};

/** round(numerator / denominator), halves up, for non-negative values. */
export function roundHalfUp(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

export interface CycleFacts {
  organizationId: string;
  start: Date;
  end: Date;
  /** compute hours per "resource:size" */
  computeHours: Map<string, bigint>;
  egressBytes: bigint;
  /** per project: [sum of samples, number of samples] */
  databaseSamples: [bigint, bigint][];
  monthlyActiveUsers: bigint;
}

export async function cycleFacts(db: Db, slug: string): Promise<CycleFacts> {
  const subscription = await db
    .selectFrom('subscriptions')
    .innerJoin('organizations', 'organizations.id', 'subscriptions.organization_id')
    .select(['organizations.id', 'current_period_start', 'current_period_end'])
    .where('organizations.slug', '=', slug)
    .executeTakeFirstOrThrow();
  const rows = await sql<{
    metric: string;
    resource: string;
    project_id: string;
    total: string;
    samples: number;
  }>`
    SELECT metric, resource, project_id, sum(usage)::text AS total, count(*)::int AS samples
    FROM usage_events
    WHERE organization_id = ${subscription.id}
      AND occurred_at >= ${subscription.current_period_start.toISOString()}::timestamptz
      AND occurred_at < ${subscription.current_period_end.toISOString()}::timestamptz
    GROUP BY metric, resource, project_id
  `.execute(db);
  const facts: CycleFacts = {
    organizationId: subscription.id,
    start: subscription.current_period_start,
    end: subscription.current_period_end,
    computeHours: new Map(),
    egressBytes: 0n,
    databaseSamples: [],
    monthlyActiveUsers: 0n,
  };
  for (const row of rows.rows) {
    const whole = BigInt(row.total.split('.')[0] ?? '0');
    const size = METRIC_SIZE[row.metric];
    if (size) {
      const key = `${row.resource}:${size}`;
      facts.computeHours.set(key, (facts.computeHours.get(key) ?? 0n) + whole);
    } else if (row.metric === 'EGRESS') facts.egressBytes += whole;
    else if (row.metric === 'DATABASE_SIZE')
      facts.databaseSamples.push([whole, BigInt(row.samples)]);
    else if (row.metric === 'MONTHLY_ACTIVE_USERS') facts.monthlyActiveUsers += whole;
  }
  return facts;
}

export function computeLineCents(facts: CycleFacts, resource: string, size: string): number {
  const hours = facts.computeHours.get(`${resource}:${size}`) ?? 0n;
  return roundHalfUp(hours * BigInt(PRICE.hourly[size] ?? 0), 1000n);
}

/** A monthly add-on billed for the hours of the cycle it ran: here, from the cycle start to `at`. */
export function addonCents(monthlyCents: number, facts: CycleFacts, at: Date): number {
  const ran = BigInt(Math.floor((at.getTime() - facts.start.getTime()) / 1000));
  const cycle = BigInt(Math.floor((facts.end.getTime() - facts.start.getTime()) / 1000));
  return roundHalfUp(BigInt(monthlyCents) * ran, cycle);
}

export function egressOverageCents(facts: CycleFacts): number {
  const over = facts.egressBytes - PRICE.egress.includedBytes;
  return over > 0n ? roundHalfUp(over * PRICE.egress.centsPerGB, 1_000_000_000n) : 0;
}

export function databaseOverageCents(facts: CycleFacts): number {
  // The average size over the cycle, per project, added up: sum_p(total_p / samples_p).
  let numerator = 0n;
  let denominator = 1n;
  for (const [total, samples] of facts.databaseSamples) {
    numerator = numerator * samples + total * denominator;
    denominator *= samples;
  }
  const over = numerator - PRICE.databaseSize.includedBytes * denominator;
  if (over <= 0n) return 0;
  return roundHalfUp(
    over * PRICE.databaseSize.tenthsOfCentPerGB,
    denominator * 1_000_000_000n * 10n,
  );
}

export function monthlyActiveUsersOverageCents(facts: CycleFacts): number {
  const over = facts.monthlyActiveUsers - PRICE.monthlyActiveUsers.included;
  return over > 0n
    ? roundHalfUp(over * PRICE.monthlyActiveUsers.thousandthsOfCentPerUser, 1000n)
    : 0;
}
