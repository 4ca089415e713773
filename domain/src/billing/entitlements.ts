import { z } from 'zod/mini';
import { documented } from '../schemas/metadata.ts';
import { DEFAULT_FREE_PROJECT_LIMIT } from '../organization/free-project-limit.ts';
import { PLAN_IDS, PLAN_NAMES, type PlanId } from '../organization/plans.ts';

/**
 * What each plan grants beyond prices and quotas (pricing.md's plan cards, as data): GET
 * /entitlements answers the organization's plan from here, and the plan cards can read the same facts.
 */
export const SUPPORT_LEVELS = ['community', 'email', 'priority', 'enterprise'] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

export const ENTITLEMENT_FEATURES = [
  'active_free_projects',
  'project_pausing_after_inactivity_days',
  'log_retention_days',
  'backup_retention_days',
  'point_in_time_recovery',
  'custom_domains',
  'spend_cap_optional',
  'read_only_and_billing_roles',
  'sso',
  'soc2',
  'hipaa_available',
  'uptime_sla',
  'support_level',
] as const;
export type EntitlementFeature = (typeof ENTITLEMENT_FEATURES)[number];

const common = {
  feature: z.enum(ENTITLEMENT_FEATURES),
  name: z.string(),
  note: documented(z.nullable(z.string()), { description: 'A condition, e.g. "As a paid add-on"' }),
};

export const entitlementSchema = documented(
  z.discriminatedUnion('type', [
    z.object({ ...common, type: z.literal('boolean'), value: z.boolean() }),
    z.object({
      ...common,
      type: z.literal('numeric'),
      value: documented(z.nullable(z.number().check(z.int()).check(z.gte(0))), {
        description: 'Null when unlimited',
      }),
      unlimited: z.boolean(),
      unit: z.enum(['days', 'projects']),
    }),
    z.object({ ...common, type: z.literal('text'), value: z.string() }),
  ]),
  { id: 'Entitlement' },
);
export type Entitlement = z.infer<typeof entitlementSchema>;

export const entitlementsSchema = documented(
  z.object({
    plan: z.object({ id: z.enum(PLAN_IDS), name: z.string() }),
    entitlements: z.array(entitlementSchema),
  }),
  { id: 'Entitlements' },
);
export type Entitlements = z.infer<typeof entitlementsSchema>;

type ByPlan<T> = Readonly<Record<PlanId, T>>;

const flag = (
  feature: EntitlementFeature,
  name: string,
  values: ByPlan<boolean>,
  note: ByPlan<string | null> | null = null,
) => ({ feature, name, kind: 'boolean' as const, values, note });

const days = (feature: EntitlementFeature, name: string, values: ByPlan<number | null>) => ({
  feature,
  name,
  kind: 'days' as const,
  values,
});

/** The catalogue: null days mean unlimited (never, for pausing). */
const CATALOGUE = [
  {
    feature: 'active_free_projects' as const,
    name: 'Active projects',
    kind: 'projects' as const,
    values: { free: DEFAULT_FREE_PROJECT_LIMIT, pro: null, team: null, enterprise: null },
  },
  days('project_pausing_after_inactivity_days', 'Projects paused after inactivity', {
    free: 7,
    pro: null,
    team: null,
    enterprise: null,
  }),
  days('log_retention_days', 'Log retention', { free: 1, pro: 7, team: 28, enterprise: 90 }),
  days('backup_retention_days', 'Daily backups kept', {
    free: 0,
    pro: 7,
    team: 14,
    enterprise: 30,
  }),
  flag(
    'point_in_time_recovery',
    'Point-in-time recovery',
    { free: false, pro: true, team: true, enterprise: true },
    { free: null, pro: 'As a paid add-on', team: 'As a paid add-on', enterprise: null },
  ),
  flag(
    'custom_domains',
    'Custom domains',
    { free: false, pro: true, team: true, enterprise: true },
    { free: null, pro: 'As a paid add-on', team: 'As a paid add-on', enterprise: null },
  ),
  flag('spend_cap_optional', 'Usage beyond the quota can be billed (spend cap off)', {
    free: false,
    pro: true,
    team: true,
    enterprise: true,
  }),
  flag('read_only_and_billing_roles', 'Read-only and billing member roles', {
    free: false,
    pro: false,
    team: true,
    enterprise: true,
  }),
  flag('sso', 'SSO for the dashboard', { free: false, pro: false, team: true, enterprise: true }),
  flag('soc2', 'SOC2', { free: false, pro: false, team: true, enterprise: true }),
  flag(
    'hipaa_available',
    'HIPAA',
    { free: false, pro: false, team: true, enterprise: true },
    { free: null, pro: null, team: 'As a paid add-on', enterprise: null },
  ),
  flag('uptime_sla', 'Uptime SLAs', { free: false, pro: false, team: false, enterprise: true }),
];

const SUPPORT: ByPlan<SupportLevel> = {
  free: 'community',
  pro: 'email',
  team: 'priority',
  enterprise: 'enterprise',
};

/** What `plan` grants, in the catalogue's order. */
export function planEntitlements(plan: PlanId): Entitlements {
  const entitlements: Entitlement[] = CATALOGUE.map((entry): Entitlement => {
    if (entry.kind === 'boolean') {
      return {
        feature: entry.feature,
        name: entry.name,
        type: 'boolean',
        value: entry.values[plan],
        note: entry.note?.[plan] ?? null,
      };
    }
    const value = entry.values[plan];
    return {
      feature: entry.feature,
      name: entry.name,
      type: 'numeric',
      value,
      unlimited: value === null,
      unit: entry.kind,
      note: null,
    };
  });
  entitlements.push({
    feature: 'support_level',
    name: 'Support',
    type: 'text',
    value: SUPPORT[plan],
    note: null,
  });
  return { plan: { id: plan, name: PLAN_NAMES[plan] }, entitlements };
}
