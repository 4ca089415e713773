/**
 * The billing changes the audit log records (product decisions §13), `resource.verb`.
 * Each action's label is what the log's filter offers; its sentence is describeAuditEntry's.
 */
export const AUDIT_ACTION_LABELS = {
  'plan.changed': 'Plan changed',
  'plan.change_scheduled': 'Plan change scheduled',
  'plan.scheduled_change_cancelled': 'Scheduled plan change cancelled',
  'plan.change_failed': 'Plan change payment failed',
  'spend_cap.updated': 'Spend cap turned on or off',
  'spend_cap.update_failed': 'Spend cap payment failed',
  'payment_method.added': 'Card added',
  'payment_method.default_set': 'Default card set',
  'payment_method.removed': 'Card removed',
  'payment_method.backup_set': 'Backup card set',
  'payment_method.backup_cleared': 'Backup card cleared',
  'payment_method.updated': 'Card updated by the card network',
  'credits.topped_up': 'Credits topped up',
  'credits.top_up_failed': 'Top-up payment failed',
  'invoice.paid': 'Invoice paid',
  'invoice.payment_failed': 'Invoice payment failed',
  'invoice.voided': 'Invoice voided',
  'payment.refunded': 'Payment refunded at the card provider',
  'payment.dispute_opened': 'Payment disputed',
  'payment.dispute_updated': 'Payment dispute updated',
  'payment.dispute_closed': 'Payment dispute closed',
  'customer.updated': 'Billing name or address changed',
  'tax_id.set': 'Tax ID set',
  'tax_id.removed': 'Tax ID removed',
  'billing_emails.updated': 'Billing emails changed',
  'spend_alert.updated': 'Spend alert set',
  'spend_alert.deleted': 'Spend alert removed',
  'webhook_endpoint.created': 'Webhook endpoint added',
  'webhook_endpoint.updated': 'Webhook endpoint changed',
  'webhook_endpoint.deleted': 'Webhook endpoint removed',
  'webhook_endpoint.secret_rotated': 'Webhook signing secret rotated',
  'access_token.created': 'Access token created',
  'access_token.revoked': 'Access token revoked',
  'restriction.changed': 'Restriction changed',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTION_LABELS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_LABELS) as [AuditAction, ...AuditAction[]];

/**
 * Who made a change: a member (session), an access token, an operator (metering key, CLI), the engine,
 * a payment link, or the card provider (its events: a refund in its dashboard, a dispute, a card update).
 */
export const AUDIT_ACTOR_TYPES = [
  'user',
  'token',
  'operator',
  'billing_job',
  'pay_link',
  'provider',
] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/** What a change was made to. */
export const AUDIT_TARGET_TYPES = [
  'subscription',
  'payment_method',
  'credit_top_up',
  'invoice',
  'customer',
  'tax_id',
  'organization',
  'spend_alert',
  'webhook_endpoint',
  'access_token',
  'plan_change',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTION_LABELS, value);
}
