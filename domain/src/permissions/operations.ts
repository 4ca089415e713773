import type { Permission } from './permissions.ts';

/**
 * Product decisions §2, operation by operation: the permission each operation of an organization needs
 * (`METHOD path` as the API document names it). The server declares the same on its routes; the generated
 * role-matrix suite checks both against this list, so a route whose check is weakened, or an operation
 * nobody placed here, fails it.
 */
export const ORGANIZATION_OPERATIONS = {
  'GET /platform/organizations/{slug}': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/audit-log': 'billing_read:audit_log',
  'GET /platform/organizations/{slug}/audit-log/export': 'billing_read:audit_log',
  'PATCH /platform/organizations/{slug}': 'update:organizations',
  'POST /platform/organizations/{slug}/billing/credits/top-up': 'billing_write:subscriptions',
  'HEAD /platform/organizations/{slug}/billing/invoices': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/invoices': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/invoices/export': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/invoices/upcoming': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/invoices/{invoiceId}': 'billing_read:subscriptions',
  'POST /platform/organizations/{slug}/billing/invoices/{invoiceId}/pay':
    'billing_write:subscriptions',
  'GET /platform/organizations/{slug}/billing/invoices/{invoiceId}/payment-link':
    'billing_write:subscriptions',
  'GET /platform/organizations/{slug}/billing/invoices/{invoiceId}/pdf':
    'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/plans': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/restriction-history': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/billing/spend-alert': 'billing_read:subscriptions',
  'PUT /platform/organizations/{slug}/billing/spend-alert': 'billing_write:subscriptions',
  'DELETE /platform/organizations/{slug}/billing/spend-alert': 'billing_write:subscriptions',
  'GET /platform/organizations/{slug}/billing/subscription': 'billing_read:subscriptions',
  'PUT /platform/organizations/{slug}/billing/subscription': 'billing_write:subscriptions',
  'POST /platform/organizations/{slug}/billing/subscription/confirm': 'billing_write:subscriptions',
  'POST /platform/organizations/{slug}/billing/subscription/preview': 'billing_write:subscriptions',
  'POST /platform/organizations/{slug}/billing/spend-cap/preview': 'billing_write:subscriptions',
  'DELETE /platform/organizations/{slug}/billing/subscription/scheduled-change':
    'billing_write:subscriptions',
  'GET /platform/organizations/{slug}/cloud-marketplace/link': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/customer': 'billing_read:customer',
  'PUT /platform/organizations/{slug}/customer': 'billing_write:customer',
  'PATCH /platform/organizations/{slug}/customer': 'billing_write:customer',
  'GET /platform/organizations/{slug}/entitlements': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/members/reached-free-project-limit':
    'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/payments': 'billing_read:payment_methods',
  'DELETE /platform/organizations/{slug}/payments': 'billing_write:payment_methods',
  'POST /platform/organizations/{slug}/payments/attach': 'billing_write:payment_methods',
  'PUT /platform/organizations/{slug}/payments/backup': 'billing_write:payment_methods',
  'DELETE /platform/organizations/{slug}/payments/backup': 'billing_write:payment_methods',
  'PUT /platform/organizations/{slug}/payments/default': 'billing_write:payment_methods',
  'POST /platform/organizations/{slug}/payments/setup-intent': 'billing_write:payment_methods',
  'GET /platform/organizations/{slug}/projects': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/tokens': 'billing_read:access_tokens',
  'POST /platform/organizations/{slug}/tokens': 'billing_write:access_tokens',
  'DELETE /platform/organizations/{slug}/tokens/{id}': 'billing_write:access_tokens',
  'GET /platform/organizations/{slug}/tax-ids': 'billing_read:tax_ids',
  'PUT /platform/organizations/{slug}/tax-ids': 'billing_write:customer',
  'DELETE /platform/organizations/{slug}/tax-ids': 'billing_write:customer',
  'GET /platform/organizations/{slug}/usage': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/usage/daily': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/usage/export': 'billing_read:subscriptions',
  'GET /platform/organizations/{slug}/webhooks': 'billing_read:webhooks',
  'POST /platform/organizations/{slug}/webhooks': 'billing_write:webhooks',
  'PATCH /platform/organizations/{slug}/webhooks/{id}': 'billing_write:webhooks',
  'DELETE /platform/organizations/{slug}/webhooks/{id}': 'billing_write:webhooks',
  'GET /platform/organizations/{slug}/webhooks/{id}/deliveries': 'billing_read:webhooks',
  'POST /platform/organizations/{slug}/webhooks/{id}/deliveries/{delivery_id}/resend':
    'billing_write:webhooks',
  'POST /platform/organizations/{slug}/webhooks/{id}/rotate-secret': 'billing_write:webhooks',
  'POST /platform/organizations/{slug}/webhooks/{id}/test': 'billing_write:webhooks',
} as const satisfies Record<string, Permission>;

export type OrganizationOperation = keyof typeof ORGANIZATION_OPERATIONS;

/** The permission an operation of an organization needs, or null when §2 does not place it. */
export function operationPermission(operation: string): Permission | null {
  return (ORGANIZATION_OPERATIONS as Record<string, Permission>)[operation] ?? null;
}
