import type {
  BillingPartner,
  ComputeSize,
  ManagedBy,
  PlanId,
  ProjectStatus,
  Role,
  Violation,
} from '@meterline/domain';

/** The demo world of shared/spec/demo-world.md, as data. Times are offsets from the moment of seeding. */
export const DEMO_PASSWORD = 'billing-demo-2026';

export interface DemoUser {
  email: string;
  name: string;
  freeProjectLimit?: number;
}

/** The five demo users administer many free organizations: a limit of 10 lets them downgrade freely. */
const DEMO_FREE_PROJECT_LIMIT = 10;
const demoUser = (email: string, name: string): DemoUser => ({
  email,
  name,
  freeProjectLimit: DEMO_FREE_PROJECT_LIMIT,
});

export const DEMO_USERS: DemoUser[] = [
  demoUser('owner@example.com', 'Olivia Owner'),
  demoUser('admin@example.com', 'Adam Admin'),
  demoUser('developer@example.com', 'Devi Developer'),
  demoUser('readonly@example.com', 'Riley Readonly'),
  demoUser('outsider@example.com', 'Oscar Outsider'),
  // Owner and administrator of crowded-co who already run as many free projects as they may, with
  // the default limit (see crowded-co and their personal organizations).
  { email: 'maya@example.com', name: 'Maya Crowder' },
  { email: 'theo@example.com', name: 'Theo Crowder' },
];

export const ACME_TEAM: [string, Role][] = [
  ['owner@example.com', 'owner'],
  ['admin@example.com', 'administrator'],
  ['developer@example.com', 'developer'],
  ['readonly@example.com', 'read_only'],
];

export interface DemoProject {
  status: ProjectStatus;
  computeSize: ComputeSize;
}

export interface DemoOrganization {
  slug: string;
  name: string;
  plan: PlanId;
  members: [string, Role][];
  /** false: the spend cap is on. Free is always capped; team and enterprise never are. */
  usageBillingEnabled: boolean;
  managedBy?: ManagedBy;
  partnerId?: string;
  billingPartner?: BillingPartner;
  paymentMethodType?: 'card' | 'invoice';
  billingEmail?: string;
  additionalBillingEmails?: string[];
  restriction?: {
    status: 'grace_period' | 'grace_period_over' | 'restricted';
    /** Days from seeding to the grace period's end; negative is in the past. */
    graceEndInDays: number | null;
    violations: Violation[];
  };
  hasOrioleProject?: boolean;
  projects: DemoProject[];
  /** Closed cycles before the current one; each becomes an invoice through the engine. */
  history?: number;
  /** Days since the current cycle started (default 12). */
  cycleStartedDaysAgo?: number;
  /** Daily usage of each project; see demo-usage.ts. */
  usage?: UsageProfile;
  /** The cards on file, in the order they were added; the story of acme-pro is told in demo-billing.ts. */
  cards?: 'standard' | 'declining' | 'acme-pro' | 'none';
  /** Credit balance in cents at the end of seeding. */
  creditBalanceCents?: number;
}

export type UsageProfile = 'free' | 'light' | 'acme' | 'overage' | 'over-free' | 'none';

const PAID_SIZES: ComputeSize[] = ['micro', 'small', 'medium', 'micro'];

function projects(
  count: number,
  plan: PlanId,
  status: ProjectStatus = 'ACTIVE_HEALTHY',
): DemoProject[] {
  return Array.from({ length: count }, (_, index) => ({
    status,
    computeSize: plan === 'free' ? 'nano' : (PAID_SIZES[index % PAID_SIZES.length] ?? 'micro'),
  }));
}

function org(
  slug: string,
  name: string,
  plan: PlanId,
  rest: Partial<DemoOrganization> = {},
): DemoOrganization {
  const billedViaPartner = rest.billingPartner !== undefined;
  return {
    slug,
    name,
    plan,
    members: ACME_TEAM,
    usageBillingEnabled: plan === 'team' || plan === 'enterprise',
    billingEmail: `billing@${slug.replaceAll('_', '-')}.example.com`,
    projects: projects(2, plan),
    usage: plan === 'free' ? 'free' : 'light',
    cards:
      plan === 'free' || billedViaPartner || rest.paymentMethodType === 'invoice'
        ? 'none'
        : 'standard',
    ...rest,
  };
}

export const DEMO_ORGANIZATIONS: DemoOrganization[] = [
  org('acme-free', 'Acme Free', 'free'),
  org('acme-pro', 'Acme Pro', 'pro', {
    billingEmail: 'billing@acme.example.com',
    additionalBillingEmails: ['finance@acme.example.com', 'cto@acme.example.com'],
    projects: projects(3, 'pro'),
    history: 13,
    usage: 'acme',
    cards: 'acme-pro',
    creditBalanceCents: 5000,
  }),
  org('acme-team', 'Acme Team', 'team', { projects: projects(4, 'team'), history: 3 }),
  org('acme-enterprise', 'Acme Enterprise', 'enterprise', { paymentMethodType: 'invoice' }),
  org('payg-co', 'PAYG Co', 'pro', { usageBillingEnabled: true, usage: 'overage' }),
  org('limits-co', 'Limits Co', 'free', { usage: 'over-free' }),
  org('grace-co', 'Grace Co', 'free', {
    restriction: { status: 'grace_period', graceEndInDays: 5, violations: ['exceed_egress_quota'] },
  }),
  org('fairuse-co', 'Fair Use Co', 'free', {
    restriction: {
      status: 'grace_period_over',
      graceEndInDays: -2,
      violations: ['exceed_egress_quota', 'exceed_storage_size_quota'],
    },
  }),
  // Its restriction is not typed in: the engine restricts it when its invoice is still unpaid after 14 days.
  org('restricted-co', 'Restricted Co', 'pro', {
    history: 1,
    cycleStartedDaysAgo: 20,
    cards: 'declining',
  }),
  org('vercel_icfg_demo123', 'Vercel Demo', 'pro', {
    managedBy: 'vercel-marketplace',
    partnerId: 'icfg_demo123',
    billingPartner: 'vercel_marketplace',
  }),
  org('aws-co', 'AWS Co', 'pro', { managedBy: 'aws-marketplace', billingPartner: 'aws' }),
  org('fly-co', 'Fly Co', 'pro', { billingPartner: 'fly' }),
  org('oriole-co', 'Oriole Co', 'pro', { hasOrioleProject: true }),
  org('crowded-co', 'Crowded Co', 'pro', {
    // Both have reached their free project limit: a downgrade to Free is refused.
    members: [...ACME_TEAM, ['maya@example.com', 'owner'], ['theo@example.com', 'administrator']],
  }),
  org('idle-co', 'Idle Co', 'pro', { projects: projects(2, 'pro', 'INACTIVE'), usage: 'none' }),
  org('outsider-org', 'Outsider Org', 'pro', { members: [['outsider@example.com', 'owner']] }),
  // The personal free organizations (2 active projects each) that put crowded-co's two members at
  // their free project limit.
  org('maya-personal', "Maya's Projects", 'free', { members: [['maya@example.com', 'owner']] }),
  org('theo-personal', "Theo's Projects", 'free', { members: [['theo@example.com', 'owner']] }),
];
