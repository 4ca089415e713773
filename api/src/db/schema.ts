import type { ColumnType, Generated, Selectable } from 'kysely';
import type {
  BillingPartner,
  ComputeSize,
  ManagedBy,
  PlanId,
  ProjectStatus,
  RestrictionData,
  RestrictionStatus,
  Role,
} from '@meterline/domain';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  name: string;
  password_hash: string;
  free_project_limit: Generated<number>;
  created_at: CreatedAt;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: CreatedAt;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
}

export interface OrganizationsTable {
  id: Generated<string>;
  slug: string;
  name: string;
  billing_email: string | null;
  additional_billing_emails: ColumnType<string[], string[] | undefined, string[]>;
  managed_by: ManagedBy;
  partner_id: string | null;
  restriction_status: RestrictionStatus | null;
  restriction_data: ColumnType<RestrictionData | null, string | null, string | null>;
  has_oriole_project: Generated<boolean>;
  created_at: CreatedAt;
}

export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: CreatedAt;
}

export interface SubscriptionsTable {
  organization_id: string;
  plan_id: PlanId;
  usage_billing_enabled: boolean;
  billing_via_partner: boolean;
  billing_partner: BillingPartner | null;
  payment_method_type: 'card' | 'invoice';
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  customer_balance_cents: Generated<number>;
  created_at: CreatedAt;
}

export interface ProjectsTable {
  id: Generated<string>;
  organization_id: string;
  ref: string;
  name: string;
  status: ProjectStatus;
  compute_size: ComputeSize;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  subscriptions: SubscriptionsTable;
  projects: ProjectsTable;
}

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
