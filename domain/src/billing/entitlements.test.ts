import { describe, expect, it } from 'vitest';
import { PLAN_IDS } from '../organization/plans.ts';
import {
  ENTITLEMENT_FEATURES,
  entitlementsSchema,
  planEntitlements,
  type Entitlement,
} from './entitlements.ts';

const valueOf = (entitlements: Entitlement[], feature: string) =>
  entitlements.find((entry) => entry.feature === feature)?.value;

describe('plan entitlements', () => {
  it('list every feature once for every plan, valid by the schema', () => {
    for (const plan of PLAN_IDS) {
      const answer = entitlementsSchema.parse(planEntitlements(plan));
      expect(answer.entitlements.map((entry) => entry.feature)).toEqual([...ENTITLEMENT_FEATURES]);
    }
  });

  it('state the price list facts', () => {
    const free = planEntitlements('free').entitlements;
    const pro = planEntitlements('pro').entitlements;
    const team = planEntitlements('team').entitlements;
    expect(valueOf(free, 'active_free_projects')).toBe(2);
    expect(valueOf(pro, 'active_free_projects')).toBeNull();
    expect(valueOf(pro, 'log_retention_days')).toBe(7);
    expect(valueOf(team, 'log_retention_days')).toBe(28);
    expect(valueOf(pro, 'backup_retention_days')).toBe(7);
    expect(valueOf(team, 'backup_retention_days')).toBe(14);
    expect(valueOf(pro, 'soc2')).toBe(false);
    expect(valueOf(team, 'soc2')).toBe(true);
    expect(valueOf(team, 'sso')).toBe(true);
    expect(valueOf(free, 'support_level')).toBe('community');
    expect(valueOf(planEntitlements('enterprise').entitlements, 'uptime_sla')).toBe(true);
  });

  it('says unlimited rather than a number where there is no limit', () => {
    for (const entry of planEntitlements('team').entitlements) {
      if (entry.type === 'numeric') expect(entry.unlimited).toBe(entry.value === null);
    }
  });
});
