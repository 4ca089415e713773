import type { ColumnType, Generated, Selectable } from 'kysely';
import type { EmailPayload } from './email-payload.ts';
import type {
  AddonMetric,
  BillingPartner,
  CappedOverage,
  ComputeSize,
  ManagedBy,
  PlanId,
  ProjectStatus,
  QuotaMetric,
  RestrictionData,
  RestrictionReason,
  RestrictionStatus,
  Role,
  Violation,
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
  /** Drawn on the organization's first invoice; every invoice number it gets starts with it. */
  invoice_prefix: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  /** The subscription's billing_version the restriction lifecycle last saw the usage at. */
  usage_observed_version: ColumnType<number | null, number | null | undefined, number | null>;
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
  billing_cycle_anchor: Timestamp;
  current_period_start: Timestamp;
  current_period_end: Timestamp;
  customer_balance_cents: Generated<number>;
  billing_version: Generated<number>;
  /** The earliest closed cycle that received usage after its close, not billed yet. */
  late_usage_since: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  /** A downgrade waiting for the cycle's end (hosting partner): all three set, or none. */
  scheduled_plan_id: ColumnType<PlanId | null, PlanId | null | undefined, PlanId | null>;
  scheduled_usage_billing_enabled: ColumnType<
    boolean | null,
    boolean | null | undefined,
    boolean | null
  >;
  scheduled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
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

export interface ProjectComputeResourcesTable {
  id: Generated<string>;
  organization_id: string;
  project_id: string;
  kind: 'read_replica' | 'branch';
  compute_size: ComputeSize;
  started_at: Timestamp;
  ended_at: Timestamp | null;
}

export interface ProjectAddonsTable {
  id: Generated<string>;
  organization_id: string;
  project_id: string;
  addon: AddonMetric;
  variant: string;
  started_at: Timestamp;
  ended_at: Timestamp | null;
}

/** numeric columns arrive as decimal strings, kept exact until the engine reads them. */
type Numeric = ColumnType<string, string | number, string | number>;

export interface UsageEventsTable {
  event_id: string;
  organization_id: string;
  project_id: string;
  metric: string;
  resource: string;
  usage: Numeric;
  occurred_at: Timestamp;
  cycle_start: Timestamp | null;
  received_at: CreatedAt;
}

export interface UsageCycleTable {
  organization_id: string;
  cycle_start: Timestamp;
  metric: string;
  project_id: string;
  resource: string;
  usage_sum: Numeric;
  usage_max: Numeric;
  samples: number;
}

/** What closing a cycle read of each of its roll-up rows: what has been billed of it. */
export type UsageCycleBilledTable = UsageCycleTable;

export interface ClosedCyclesTable {
  organization_id: string;
  cycle_start: Timestamp;
  cycle_end: Timestamp;
  /** The end the cycle was scheduled to have (after cycle_end when a plan change cut it short); null before 0030. */
  scheduled_end: ColumnType<Date | null, Date | null | undefined, Date | null>;
  plan_id: PlanId;
  usage_billing_enabled: boolean;
  projects: ColumnType<{ ref: string; name: string }[], string, string>;
  closed_at: Timestamp;
  /** Capped overage billed of a cycle whose spend cap was toggled, per line; null: never toggled. */
  spend_cap_billed: ColumnType<CappedOverage | null, string | null | undefined, string | null>;
}

export interface UsageDailyTable {
  organization_id: string;
  day: ColumnType<Date, string, string>;
  metric: string;
  project_id: string;
  resource: string;
  usage_sum: Numeric;
  usage_max: Numeric;
  samples: number;
}

export interface PaymentMethodsTable {
  has_address: ColumnType<boolean, boolean | undefined, boolean>;
  id: string;
  organization_id: string;
  provider: string;
  provider_payment_method_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  is_default: Generated<boolean>;
  /** Charged once when the default card declines an automatic collection; never the default too. */
  is_backup: Generated<boolean>;
  created_at: CreatedAt;
  /** The provider's time of the latest card update applied (its event's); null: none since it was saved. */
  provider_updated_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export type InvoiceStatus = 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';

export interface InvoicesTable {
  id: string;
  organization_id: string;
  number: string;
  sequence: number;
  status: InvoiceStatus;
  period_start: Timestamp;
  period_end: Timestamp;
  subtotal_cents: number;
  credit_applied_cents: number;
  amount_due_cents: number;
  amount_paid_cents: Generated<number>;
  payment_attempted: Generated<boolean>;
  attempt_count: Generated<number>;
  next_payment_attempt_at: Timestamp | null;
  billing_name: string | null;
  billing_address: ColumnType<unknown, string | null, string | null>;
  tax_id: ColumnType<unknown, string | null, string | null>;
  billing_email: string | null;
  plan_id: PlanId;
  finalized_at: Timestamp;
  paid_at: Timestamp | null;
  voided_at: Timestamp | null;
  /** Billed through the hosting or marketplace partner: recorded here, never collected here. */
  billed_via_partner: Generated<boolean>;
  created_at: CreatedAt;
  kind: ColumnType<'cycle' | 'spend_cap', 'cycle' | 'spend_cap' | undefined, never>;
}

export interface InvoiceLinesTable {
  invoice_id: string;
  position: number;
  description: string;
  amount_cents: number;
  amount_before_discount_cents: number;
  unit_price_desc: string | null;
  usage_metric: string | null;
  usage_original: ColumnType<string | null, string | number | null, string | number | null>;
  metadata: ColumnType<unknown, string, string>;
  breakdown: ColumnType<unknown, string, string>;
  /** Null on lines recorded before migration 0017. */
  quantity: ColumnType<string | null, string | number | null, string | number | null>;
  unit_price: ColumnType<string | null, string | number | null, string | number | null>;
  /** Of usage_original, what the plan included; null on lines recorded before migration 0019. */
  included_quantity: ColumnType<
    string | null,
    string | number | null | undefined,
    string | number | null
  >;
  proration: ColumnType<boolean, boolean | undefined, boolean>;
  usage_based: ColumnType<boolean, boolean | undefined, boolean>;
}

export type ChargeStatus = 'pending' | 'succeeded' | 'failed' | 'requires_action';

export interface ChargesTable {
  id: string;
  organization_id: string;
  invoice_id: string | null;
  purpose: 'invoice' | 'top_up' | 'plan_change';
  /** The plan change this charge pays for (purpose plan_change). */
  plan_change_id: ColumnType<string | null, string | null | undefined, string | null>;
  amount_cents: number;
  payment_method_id: string | null;
  idempotency_key: string;
  status: ChargeStatus;
  provider_ref: string | null;
  failure_message: string | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  provider_payment_method_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** A top-up's billing name, address and tax ID, applied to the profile when the charge succeeds. */
  profile_update: ColumnType<unknown, string | null | undefined, string | null>;
  /** Wall-clock start of the latest provider call, written by the process making it. */
  attempted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When a payment waiting for 3-D Secure is abandoned and may be cancelled. */
  action_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** A success for an invoice that no longer needed paying is refunded: pending, then succeeded. */
  refund_status: ColumnType<'pending' | 'succeeded' | null, never, 'pending' | 'succeeded' | null>;
  refund_reason: ColumnType<string | null, never, string | null>;
  refund_ref: ColumnType<string | null, never, string | null>;
  refunded_at: ColumnType<Date | null, never, Date | null>;
  /** A backup card's charge: the default card's declined charge of the same attempt it stands in for. */
  backup_of_charge_id: ColumnType<string | null, string | null | undefined, never>;
  /** Who started the payment, from where (an AuditContext); null: the billing engine. */
  audit_context: ColumnType<unknown, string | null | undefined, never>;
  /** What the provider says was refunded of this payment, all refunds together (its events). */
  amount_refunded_cents: Generated<number>;
}

/** A dispute (chargeback) of a charge, as the provider's events tell it; the latest event wins. */
export interface ChargeDisputesTable {
  id: string;
  provider: string;
  provider_dispute_id: string;
  organization_id: string;
  charge_id: string;
  invoice_id: string | null;
  amount_cents: number;
  reason: string;
  status: string;
  opened_at: Date;
  closed_at: Date | null;
  provider_updated_at: Date;
}

export type PlanChangeStatus = 'pending' | 'applied' | 'failed' | 'expired';

type Json<T> = ColumnType<T, string, string>;

export interface PlanChangesTable {
  id: string;
  organization_id: string;
  idempotency_key: string;
  /** What the request asked for, hashed: a repeat of the key must ask for the same. */
  request_fingerprint: string;
  status: PlanChangeStatus;
  tier: string;
  from_plan: PlanId;
  from_usage_billing_enabled: boolean;
  to_plan: PlanId;
  to_usage_billing_enabled: boolean;
  /** The moment of the change: the preview's proration date; the cycle ends and restarts here. */
  changed_at: Timestamp;
  cycle_start: Timestamp;
  cycle_end: Timestamp;
  lines: Json<unknown>;
  total_cents: number;
  credit_applied_cents: number;
  charge_today_cents: number;
  /** The ending cycle's roll-up rows as read when the change was priced: recorded as billed. */
  billed_usage: Json<unknown>;
  projects: Json<{ ref: string; name: string }[]>;
  payment_method_id: string | null;
  profile_update: ColumnType<unknown, string | null | undefined, string | null>;
  billed_via_partner: boolean;
  invoice_id: ColumnType<string | null, string | null | undefined, string | null>;
  failure_message: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: CreatedAt;
  expires_at: Timestamp;
  resolved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 'spend_cap': a toggle of the spend cap (the same plan, the other cap setting). */
  kind: ColumnType<'plan' | 'spend_cap', 'plan' | 'spend_cap' | undefined, never>;
  /** A toggle's overage reading at `changed_at`, and what its invoice bills, per capped metric. */
  spend_cap_reading: ColumnType<CappedOverage | null, string | null | undefined, never>;
  spend_cap_billed: ColumnType<CappedOverage | null, string | null | undefined, never>;
  /** Who asked for the change, from where (an AuditContext). */
  audit_context: ColumnType<unknown, string | null | undefined, never>;
}

export interface SpendCapTogglesTable {
  id: Generated<string>;
  organization_id: string;
  cycle_start: Timestamp;
  at: Timestamp;
  cap_on: boolean;
  reading: Json<CappedOverage>;
  billed: Json<CappedOverage>;
  plan_change_id: string | null;
  created_at: CreatedAt;
}

/** A plan-change preview's priced change, charged as shown when the change comes back with its date. */
export interface PlanChangeQuotesTable {
  organization_id: string;
  user_id: string;
  tier: string;
  proration_date: Timestamp;
  priced: Json<unknown>;
  created_at: CreatedAt;
  expires_at: Timestamp;
}

export interface RestrictionTransitionsTable {
  id: Generated<string>;
  organization_id: string;
  at: Timestamp;
  from_status: RestrictionStatus | null;
  to_status: RestrictionStatus | null;
  reason: RestrictionReason;
  metrics: Json<QuotaMetric[]>;
  violations: Json<Violation[]>;
  grace_period_end: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface BillingJobFailuresTable {
  kind: string;
  item_id: string;
  organization_id: string | null;
  failures: number;
  last_error: string;
  first_failed_at: Timestamp;
  last_failed_at: Timestamp;
  retry_after: Timestamp;
}

/** The simulator's cards: never a card number (migration 0010), as the provider hands none back. */
export interface SimulatorPaymentMethodsTable {
  id: string;
  brand: string;
  last4: string;
  /** HMAC-SHA256 of the number under the database's pepper: the same card has the same fingerprint. */
  fingerprint: string;
  /** What the card does when charged, decided from its number when it was tokenized. */
  behaviour:
    | 'succeed'
    | 'decline'
    | 'insufficient_funds'
    | 'expired'
    | 'authenticate'
    | 'authenticate_always';
  exp_month: number;
  exp_year: number;
  /** The organization the card is saved for; null for a card tokenized for a one-off payment. */
  customer: string | null;
  /** Removed from its customer: never charged or attached again. */
  detached_at: ColumnType<Date | null, Date | null | undefined, Date>;
  created_at: CreatedAt;
}

export interface SimulatorPaymentIntentsTable {
  id: string;
  idempotency_key: string | null;
  amount_cents: number;
  payment_method_id: string;
  status: string;
  failure_message: string | null;
  client_secret: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  refunded_cents: Generated<number>;
}

export interface SimulatorSetupIntentsTable {
  id: string;
  client_secret: string;
  status: 'requires_payment_method' | 'requires_action' | 'succeeded' | 'canceled';
  payment_method_id: string | null;
  last_error: string | null;
  metadata: ColumnType<Record<string, string>, string | undefined, string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SimulatorRefundsTable {
  id: string;
  payment_intent_id: string;
  amount_cents: number;
  reason: string;
  created_at: CreatedAt;
}

export interface SimulatorChallengesTable {
  id: string;
  intent_type: 'setup' | 'payment';
  intent_id: string;
  status: 'pending' | 'completed' | 'failed' | 'canceled';
  created_at: CreatedAt;
  resolved_at: Date | null;
}

/** A security limit's count for one key in its current fixed window (repositories/rate-limits.ts). */
export interface RateLimitWindowsTable {
  /** The limit's name, then a digest of whom it counts (an address, an email, a user). */
  key: string;
  hits: number;
  window_started_at: Timestamp;
  expires_at: Timestamp;
}

export interface CaptchaTokensTable {
  token_hash: string;
  user_id: string;
  expires_at: Timestamp;
  created_at: CreatedAt;
  /** The request (its idempotency key) that spent the token; null while unspent. */
  spent_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SetupIntentsTable {
  id: string;
  organization_id: string;
  provider: string;
  provider_setup_intent_id: string;
  status: 'created' | 'recorded' | 'failed';
  payment_method_id: string | null;
  /** The provider's message when the setup failed (its event). */
  failure_message: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  /** Who started adding the card, from where (an AuditContext). */
  audit_context: ColumnType<unknown, string | null | undefined, never>;
}

export interface PaymentEventsTable {
  id: string;
  provider: string;
  type: string;
  received_at: CreatedAt;
}

export interface ProviderCustomersTable {
  organization_id: string;
  provider: string;
  provider_customer_id: string;
  created_at: CreatedAt;
}

type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;

export interface BillingCustomersTable {
  organization_id: string;
  billing_name: string | null;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  updated_at: UpdatedAt;
}

export interface TaxIdsTable {
  organization_id: string;
  type: string;
  value: string;
  country: string;
  created_at: UpdatedAt;
}

export interface SurveyResponsesTable {
  id: string;
  kind: 'downgrade' | 'upgrade';
  user_id: string | null;
  organization_id: string | null;
  organization_slug: string | null;
  project_ref: string | null;
  exit_action: 'downgrade' | 'delete' | null;
  prev_plan: PlanId | null;
  current_plan: PlanId | null;
  reasons: ColumnType<string[], string, string>;
  additional_feedback: string | null;
  created_at: CreatedAt;
}

export interface AppMetaTable {
  key: string;
  value: string;
  updated_at: CreatedAt;
}

export interface EmailOutboxTable {
  id: string;
  organization_id: string | null;
  event: string;
  event_key: string;
  recipient: string;
  subject: string;
  payload: ColumnType<EmailPayload, string, string>;
  html: string | null;
  text: string | null;
  message_id: string;
  created_at: Date;
  attempts: Generated<number>;
  next_attempt_at: Date;
  claimed_until: Date | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
}

export interface SpendAlertBudgetsTable {
  organization_id: string;
  budget: number;
  thresholds: number[];
  updated_at: Date;
}

export interface SpendAlertsSentTable {
  id: string;
  organization_id: string;
  cycle_start: Date;
  /** A threshold's percentage as text ('90'), or 'projected'. */
  alert: string;
  budget: number;
  spend_cents: number;
  projected_cents: number;
  sent_at: Date;
}

export interface AccessTokensTable {
  id: string;
  organization_id: string;
  name: string;
  scope: 'billing:read';
  token_hash: string;
  prefix: string;
  created_by: string | null;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  window_started_at: Date | null;
  window_requests: Generated<number>;
}

/** One billing change (migration 0027): written with it, never updated or deleted. */
export interface AuditLogTable {
  id: string;
  organization_id: string;
  actor_type: 'user' | 'token' | 'operator' | 'billing_job' | 'pay_link' | 'provider';
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  before: ColumnType<Record<string, unknown> | null, string | null, never>;
  after: ColumnType<Record<string, unknown> | null, string | null, never>;
  ip: string | null;
  user_agent: string | null;
  created_at: ColumnType<Date, Date, never>;
}

export interface WebhookEndpointsTable {
  id: string;
  organization_id: string;
  url: string;
  description: Generated<string>;
  events: string[];
  secret: string;
  /** The secret replaced by a rotation, still signing beside the new one until it expires. */
  previous_secret: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  enabled: Generated<boolean>;
  disabled_reason: 'manual' | 'failing' | null;
  failing_since: Date | null;
  created_at: Date;
}

export interface WebhookEventsTable {
  id: string;
  organization_id: string;
  type: string;
  event_key: string;
  data: ColumnType<Record<string, unknown>, string, string>;
  created_at: Date;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  endpoint_id: string;
  created_at: Date;
  attempts: Generated<number>;
  retry_since: Date;
  next_attempt_at: Date;
  claimed_until: Date | null;
  delivered_at: Date | null;
  failed_at: Date | null;
  last_status: number | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  at: Date;
  response_status: number | null;
  duration_ms: number;
  response_excerpt: string;
  error: string | null;
}

export interface Database {
  app_meta: AppMetaTable;
  users: UsersTable;
  sessions: SessionsTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  subscriptions: SubscriptionsTable;
  projects: ProjectsTable;
  project_compute_resources: ProjectComputeResourcesTable;
  project_addons: ProjectAddonsTable;
  usage_events: UsageEventsTable;
  usage_daily: UsageDailyTable;
  usage_cycle: UsageCycleTable;
  usage_cycle_billed: UsageCycleBilledTable;
  closed_cycles: ClosedCyclesTable;
  payment_methods: PaymentMethodsTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  charges: ChargesTable;
  charge_disputes: ChargeDisputesTable;
  plan_changes: PlanChangesTable;
  plan_change_quotes: PlanChangeQuotesTable;
  restriction_transitions: RestrictionTransitionsTable;
  email_outbox: EmailOutboxTable;
  spend_alert_budgets: SpendAlertBudgetsTable;
  spend_alerts_sent: SpendAlertsSentTable;
  access_tokens: AccessTokensTable;
  audit_log: AuditLogTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  spend_cap_toggles: SpendCapTogglesTable;
  billing_job_failures: BillingJobFailuresTable;
  simulator_payment_methods: SimulatorPaymentMethodsTable;
  simulator_payment_intents: SimulatorPaymentIntentsTable;
  billing_customers: BillingCustomersTable;
  tax_ids: TaxIdsTable;
  captcha_tokens: CaptchaTokensTable;
  setup_intents: SetupIntentsTable;
  payment_events: PaymentEventsTable;
  provider_customers: ProviderCustomersTable;
  simulator_setup_intents: SimulatorSetupIntentsTable;
  simulator_challenges: SimulatorChallengesTable;
  simulator_refunds: SimulatorRefundsTable;
  survey_responses: SurveyResponsesTable;
  rate_limit_windows: RateLimitWindowsTable;
}

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;
