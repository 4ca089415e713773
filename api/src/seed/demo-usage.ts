import {
  computeMetricForSize,
  type BillingMetric,
  type ComputeSize,
  type UsageEvent,
} from '@meterline/domain';
import type { UsageProfile } from './demo-world-data.ts';

const DAY = 86_400;
const GB = 1_000_000_000;

interface DailyAmounts {
  egress: number;
  databaseSize: number;
  storageSize: number;
  monthlyActiveUsers: number;
  functionInvocations: number;
  realtimeMessages: number;
}

/** Per project and day; each day varies around these by a deterministic ±20%. */
const PROFILES: Record<Exclude<UsageProfile, 'none'>, DailyAmounts> = {
  // Comfortably inside the Free quota over a whole cycle (under half of each, two projects).
  free: {
    egress: 0.04 * GB,
    databaseSize: 0.1 * GB,
    storageSize: 0.2 * GB,
    monthlyActiveUsers: 25,
    functionInvocations: 2_500,
    realtimeMessages: 10_000,
  },
  light: {
    egress: 0.4 * GB,
    databaseSize: 0.3 * GB,
    storageSize: 1.2 * GB,
    monthlyActiveUsers: 60,
    functionInvocations: 4_000,
    realtimeMessages: 8_000,
  },
  acme: {
    egress: 1.6 * GB,
    databaseSize: 1.3 * GB,
    storageSize: 6 * GB,
    monthlyActiveUsers: 450,
    functionInvocations: 18_000,
    realtimeMessages: 40_000,
  },
  // Above the Pro quota within the first days of a cycle: egress, database size and monthly active users.
  overage: {
    egress: 13 * GB,
    databaseSize: 6.5 * GB,
    storageSize: 20 * GB,
    monthlyActiveUsers: 5_200,
    functionInvocations: 60_000,
    realtimeMessages: 120_000,
  },
  // Above the Free quota: egress and database size.
  'over-free': {
    egress: 0.35 * GB,
    databaseSize: 0.42 * GB,
    storageSize: 0.3 * GB,
    monthlyActiveUsers: 40,
    functionInvocations: 2_000,
    realtimeMessages: 3_000,
  },
};

/** A small deterministic generator, so that every seeding tells the same story. */
function jitter(seed: string): number {
  let hash = 2166136261;
  for (const char of seed) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  return 0.8 + ((hash >>> 0) % 4001) / 10_000;
}

export interface DemoUsageProject {
  ref: string;
  computeSize: ComputeSize;
  active: boolean;
  readReplica?: ComputeSize;
  branchHoursPerDay?: number;
}

/**
 * The usage events a project would have reported from `from` to `to`, one event per metric and day (the
 * reporter is free to aggregate). Compute hours stop at `to`; the last, unfinished day counts its hours.
 */
export function demoUsageEvents(
  slug: string,
  profile: UsageProfile,
  billsCompute: boolean,
  projects: readonly DemoUsageProject[],
  from: number,
  to: number,
): UsageEvent[] {
  const events: UsageEvent[] = [];
  for (let day = from; day < to; day += DAY) {
    const hours = Math.min(24, Math.floor((to - day) / 3600));
    for (const project of projects) {
      if (!project.active) continue;
      const push = (
        metric: BillingMetric,
        usage: number,
        resource?: 'primary' | 'read_replica',
      ) => {
        if (usage <= 0) return;
        const id = `seed:${slug}:${project.ref}:${metric}:${resource ?? ''}:${day}`;
        events.push({
          id,
          project_ref: project.ref,
          metric,
          usage,
          timestamp: day,
          ...(resource ? { resource } : {}),
        });
      };
      if (billsCompute) {
        push(computeMetricForSize(project.computeSize), hours, 'primary');
        if (project.readReplica)
          push(computeMetricForSize(project.readReplica), hours, 'read_replica');
        if (project.branchHoursPerDay) {
          push('COMPUTE_HOURS_BRANCH', Math.min(hours, project.branchHoursPerDay));
        }
      }
      if (profile === 'none' || hours === 0) continue;
      const amounts = PROFILES[profile];
      const scale = (what: string, value: number, whole = true) => {
        const scaled = value * jitter(`${slug}:${project.ref}:${what}:${day}`) * (hours / 24);
        return whole ? Math.round(scaled) : scaled;
      };
      push('EGRESS', scale('egress', amounts.egress));
      // Sizes are samples, averaged over the cycle: a part day still reports the full size.
      push(
        'DATABASE_SIZE',
        Math.round(amounts.databaseSize * jitter(`${slug}:${project.ref}:db:${day}`)),
      );
      push(
        'STORAGE_SIZE',
        Math.round(amounts.storageSize * jitter(`${slug}:${project.ref}:st:${day}`)),
      );
      push('MONTHLY_ACTIVE_USERS', scale('mau', amounts.monthlyActiveUsers));
      push('FUNCTION_INVOCATIONS', scale('fn', amounts.functionInvocations));
      push('REALTIME_MESSAGE_COUNT', scale('rt', amounts.realtimeMessages));
    }
  }
  return events;
}
