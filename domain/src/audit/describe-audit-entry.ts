import { PLAN_NAMES } from '../organization/plans.ts';
import { formatInvoiceDate } from '../format/dates.ts';
import { formatCents } from '../money/format-cents.ts';
import { cardBrandName } from '../payments/payment-methods.ts';
import type { AuditAction, AuditActorType } from './actions.ts';

/** What a sentence needs of an entry (the API's entry has more). */
export interface DescribableAuditEntry {
  actor: { type: AuditActorType; id: string | null; email: string | null };
  action: AuditAction;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

type Fields = Record<string, unknown> | null;

/** What the sentence may say beyond the entry: the ids of the cards the organization holds today. */
export interface AuditDescriptionContext {
  cardsOnFile?: ReadonlySet<string>;
}

/**
 * Whether the card an entry recorded is no longer on file (removed since), so that a card the payment
 * methods list never shows reads as removed. Unknown without the cards on file or the card's id.
 */
export function isRemovedCard(fields: Fields, context: AuditDescriptionContext = {}): boolean {
  const id = text(fields, 'id');
  return Boolean(context.cardsOnFile && id && !context.cardsOnFile.has(id));
}

const text = (fields: Fields, key: string): string | null => {
  const value = fields?.[key];
  return typeof value === 'string' && value ? value : null;
};
const count = (fields: Fields, key: string): number | null => {
  const value = fields?.[key];
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
};
const record = (fields: Fields, key: string): Fields => {
  const value = fields?.[key];
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
};

/**
 * "a Visa card ending 4242" from `{brand, last4}`, "the Visa card ending 9995 (removed)" for a
 * card no longer on file; "a card" when the entry holds none.
 */
function card(fields: Fields, article: 'a' | 'the', context: AuditDescriptionContext): string {
  const brand = text(fields, 'brand');
  const last4 = text(fields, 'last4');
  if (!brand || !last4) return `${article} card`;
  const name = cardBrandName(brand);
  const an = article === 'a' && /^[AEIOU]/.test(name) ? 'an' : article;
  const removed = isRemovedCard(fields, context) ? ' (removed)' : '';
  return `${an} ${name} card ending ${last4}${removed}`;
}

const plan = (value: string | null): string =>
  value ? ((PLAN_NAMES as Record<string, string>)[value] ?? value) : 'another plan';

/** "$100.00 of credit", or "credit". */
const credit = (cents: number | null): string =>
  cents === null ? 'credit' : `${formatCents(cents)} of credit`;

/** " ($25.00)" or nothing. */
const amountInParentheses = (cents: number | null): string =>
  cents === null ? '' : ` (${formatCents(cents)})`;

const invoice = (fields: Fields): string => {
  const number = text(fields, 'number');
  return number ? `invoice ${number}` : 'an invoice';
};

/** "invoice 2026-0001", or what the payment was for when it paid no invoice. */
const payment = (fields: Fields): string =>
  text(fields, 'number') ? invoice(fields) : 'a credit top-up or plan change';

const reason = (fields: Fields): string => {
  const value = text(fields, 'reason');
  return value ? ` (${value.replaceAll('_', ' ')})` : '';
};

const disputeStatus = (fields: Fields): string =>
  (text(fields, 'status') ?? 'unknown').replaceAll('_', ' ');

const RESTRICTION_MOVES: Record<string, string> = {
  grace_period: 'started the grace period',
  grace_period_over: 'ended the grace period',
  restricted: 'restricted the organization',
};

function restriction(after: Fields): string {
  const to = text(after, 'status');
  if (!to) return 'lifted the restriction';
  return RESTRICTION_MOVES[to] ?? `moved the restriction to ${to}`;
}

function customerChange(before: Fields, after: Fields): string {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const name = keys.has('billing_name');
  const address = keys.has('address');
  if (name && address) return 'changed the billing name and address';
  if (name) return 'changed the billing name';
  return 'changed the billing address';
}

function taxId(fields: Fields): string {
  const value = text(record(fields, 'tax_id'), 'value');
  return value ? `the tax ID ${value}` : 'the tax ID';
}

function endpoint(fields: Fields): string {
  const url = text(fields, 'url');
  return url ? `the webhook endpoint ${url}` : 'a webhook endpoint';
}

function endpointChange(before: Fields, after: Fields): string {
  const enabled = after?.['enabled'];
  const url = text(after, 'url') ?? text(before, 'url');
  const named = url ? `the webhook endpoint ${url}` : 'a webhook endpoint';
  if (enabled === false) return `turned off ${named}`;
  if (enabled === true) return `turned on ${named}`;
  return `changed ${named}`;
}

const token = (fields: Fields): string => {
  const name = text(fields, 'name');
  return name ? `the access token "${name}"` : 'an access token';
};

const failed = (after: Fields): string => {
  const message = text(after, 'failure_message');
  return message ? `the payment failed: ${message}` : 'the payment failed';
};

/** What the actor did, after its name: "turned the spend cap off". */
function predicate(
  { action, before, after }: DescribableAuditEntry,
  context: AuditDescriptionContext,
): string {
  switch (action) {
    case 'plan.changed':
      return `changed the plan from ${plan(text(before, 'plan'))} to ${plan(text(after, 'plan'))}`;
    case 'plan.change_scheduled': {
      const at = count(after, 'scheduled_at');
      const when = at === null ? 'the end of the billing cycle' : formatInvoiceDate(at);
      return `scheduled a change to ${plan(text(after, 'scheduled_plan'))} for ${when}`;
    }
    case 'plan.scheduled_change_cancelled':
      return `cancelled the scheduled change to ${plan(text(before, 'scheduled_plan'))}`;
    case 'plan.change_failed':
      return `tried to change the plan to ${plan(text(after, 'plan'))}; ${failed(after)}`;
    case 'spend_cap.updated':
      return `turned the spend cap ${after?.['spend_cap'] === true ? 'on' : 'off'}`;
    case 'spend_cap.update_failed':
      return `tried to turn the spend cap ${after?.['spend_cap'] === true ? 'on' : 'off'}; ${failed(after)}`;
    case 'payment_method.added':
      return `added ${card(after, 'a', context)}`;
    case 'payment_method.updated': {
      const month = count(after, 'exp_month');
      const year = count(after, 'exp_year');
      const expiry = month !== null && year !== null ? `: it now expires ${month}/${year}` : '';
      return `updated ${card(after, 'the', context)}${expiry}`;
    }
    case 'payment_method.default_set':
      return `made ${card(record(after, 'default_card'), 'the', context)} the default`;
    case 'payment_method.removed':
      return `removed ${card(before, 'the', {})}`;
    case 'payment_method.backup_set':
      return `made ${card(record(after, 'backup_card'), 'the', context)} the backup`;
    case 'payment_method.backup_cleared':
      return `stopped using ${card(record(before, 'backup_card'), 'the', context)} as the backup`;
    case 'credits.topped_up':
      return `topped up ${credit(count(after, 'amount_cents'))} with ${card(record(after, 'card'), 'the', context)}`;
    case 'credits.top_up_failed':
      return `tried to top up ${credit(count(after, 'amount_cents'))}; ${failed(after)}`;
    case 'invoice.paid':
      return `paid ${invoice(after)}${amountInParentheses(count(after, 'amount_paid_cents'))} with ${card(record(after, 'card'), 'the', context)}`;
    case 'invoice.payment_failed':
      return `tried to collect ${invoice(after)}${amountInParentheses(count(after, 'amount_cents'))} from ${card(record(after, 'card'), 'the', context)}; ${failed(after)}`;
    case 'payment.refunded':
      return `refunded ${formatCents(count(after, 'refunded_cents') ?? 0)} of the payment of ${payment(after)}`;
    case 'payment.dispute_opened':
      return `reported a dispute of ${formatCents(count(after, 'amount_cents') ?? 0)} on the payment of ${payment(after)}${reason(after)}`;
    case 'payment.dispute_updated':
      return `updated the dispute on the payment of ${payment(after)}: ${disputeStatus(after)}`;
    case 'payment.dispute_closed':
      return `closed the dispute on the payment of ${payment(after)}: ${disputeStatus(after)}`;
    case 'invoice.voided':
      return `voided ${invoice(after) === 'an invoice' ? invoice(before) : invoice(after)}`;
    case 'customer.updated':
      return customerChange(before, after);
    case 'tax_id.set':
      return `set ${taxId(after)}`;
    case 'tax_id.removed':
      return `removed ${taxId(before)}`;
    case 'billing_emails.updated':
      return 'changed the billing emails';
    case 'spend_alert.updated': {
      const budget = count(after, 'budget');
      return budget === null
        ? 'changed the spend alert'
        : `set the spend alert budget to ${formatCents(budget * 100)}`;
    }
    case 'spend_alert.deleted':
      return 'removed the spend alert';
    case 'webhook_endpoint.created':
      return `added ${endpoint(after)}`;
    case 'webhook_endpoint.updated':
      return endpointChange(before, after);
    case 'webhook_endpoint.deleted':
      return `removed ${endpoint(before)}`;
    case 'webhook_endpoint.secret_rotated':
      return `rotated the signing secret of ${endpoint(after ?? before)}`;
    case 'access_token.created':
      return `created ${token(after)}`;
    case 'access_token.revoked':
      return `revoked ${token(before)}`;
    case 'restriction.changed':
      return restriction(after);
  }
}

/** Who did it, as the sentence starts: the member's email, or what the actor is. */
export function describeAuditActor(actor: DescribableAuditEntry['actor']): string {
  switch (actor.type) {
    case 'user':
      return actor.email ?? 'A former member';
    case 'token':
      return actor.id ? `The access token ${actor.id}` : 'An access token';
    case 'operator':
      return 'An operator';
    case 'billing_job':
      return 'The billing job';
    case 'pay_link':
      return "Someone with the invoice's payment link";
    case 'provider':
      return 'The card provider';
  }
}

/**
 * One readable sentence per entry, as the audit log page and its export show it:
 * "owner@example.com turned the spend cap off", "owner@example.com added a Visa card ending 4242".
 */
export function describeAuditEntry(
  entry: DescribableAuditEntry,
  context: AuditDescriptionContext = {},
): string {
  return `${describeAuditActor(entry.actor)} ${predicate(entry, context)}`;
}
