import type { QueryClient } from '@tanstack/react-query';
import { resetCsrfToken } from './api-client';
import {
  accessTokenKeys,
  auditLogKeys,
  customerKeys,
  invoiceKeys,
  organizationKeys,
  paymentMethodKeys,
  profileKeys,
  projectKeys,
  entitlementKeys,
  planKeys,
  subscriptionKeys,
  spendAlertKeys,
  subscriptionPreviewKeys,
  taxIdKeys,
  usageKeys,
  webhookKeys,
} from './keys';

/** Mutation keys: the MutationCache looks these up to know what a success makes stale. */
export const mutationKeys = {
  signIn: ['auth', 'sign-in'] as const,
  signOut: ['auth', 'sign-out'] as const,
  updateCustomer: ['customer', 'update'] as const,
  setTaxId: ['tax-ids', 'set'] as const,
  deleteTaxId: ['tax-ids', 'delete'] as const,
  updateOrganization: ['organizations', 'update'] as const,
  setupIntent: ['payment-methods', 'setup-intent'] as const,
  attachPaymentMethod: ['payment-methods', 'attach'] as const,
  setDefaultPaymentMethod: ['payment-methods', 'set-default'] as const,
  setBackupPaymentMethod: ['payment-methods', 'set-backup'] as const,
  removeBackupPaymentMethod: ['payment-methods', 'remove-backup'] as const,
  deletePaymentMethod: ['payment-methods', 'delete'] as const,
  topUpCredits: ['credits', 'top-up'] as const,
  payInvoice: ['invoices', 'pay'] as const,
  payInvoiceByLink: ['invoices', 'pay-by-link'] as const,
  updateSubscription: ['subscriptions', 'update'] as const,
  cancelScheduledChange: ['subscriptions', 'cancel-scheduled-change'] as const,
  submitUpgradeFeedback: ['feedback', 'upgrade'] as const,
  setSpendAlert: ['spend-alerts', 'set'] as const,
  deleteSpendAlert: ['spend-alerts', 'delete'] as const,
  createWebhook: ['webhooks', 'create'] as const,
  updateWebhook: ['webhooks', 'update'] as const,
  deleteWebhook: ['webhooks', 'delete'] as const,
  rotateWebhookSecret: ['webhooks', 'rotate-secret'] as const,
  testWebhook: ['webhooks', 'test'] as const,
  resendWebhookDelivery: ['webhooks', 'resend'] as const,
  createAccessToken: ['access-tokens', 'create'] as const,
  revokeAccessToken: ['access-tokens', 'revoke'] as const,
};

type MutationName = keyof typeof mutationKeys;

/**
 * What each mutation makes stale, in one place. Every new mutation adds its line here instead of
 * invalidating from its component.
 */
/**
 * A paid invoice leaves the outstanding list, and may lift an overdue_payment restriction from the
 * organization and its projects; a saved card charged has a new last charge.
 */
async function afterInvoicePaid(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
    queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
    queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
    queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
    queryClient.invalidateQueries({ queryKey: projectKeys.all }),
  ]);
}

const AFTER_SUCCESS: Record<MutationName, (queryClient: QueryClient) => Promise<void>> = {
  // A new session: nothing cached for the previous one may be shown, and the profile is refetched.
  signIn: async (queryClient) => {
    queryClient.removeQueries({
      predicate: (query) => query.queryKey[0] !== profileKeys.all[0],
    });
    await queryClient.invalidateQueries({ queryKey: profileKeys.all });
  },
  // The session is gone: drop every cached answer and the CSRF token that belonged to it.
  signOut: async (queryClient) => {
    resetCsrfToken();
    await queryClient.cancelQueries();
    queryClient.removeQueries();
  },
  updateCustomer: (queryClient) => queryClient.invalidateQueries({ queryKey: customerKeys.all }),
  setTaxId: (queryClient) => queryClient.invalidateQueries({ queryKey: taxIdKeys.all }),
  deleteTaxId: (queryClient) => queryClient.invalidateQueries({ queryKey: taxIdKeys.all }),
  // Billing emails live on the organization (detail and list); the customer profile repeats the
  // additional recipients.
  updateOrganization: async (queryClient) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
      queryClient.invalidateQueries({ queryKey: customerKeys.all }),
    ]);
  },
  // A setup intent is only the provider's permission to collect a card: nothing cached changes.
  setupIntent: async () => undefined,
  attachPaymentMethod: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
  // Making the backup card the default also clears its backup mark: the list answers both.
  setDefaultPaymentMethod: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
  setBackupPaymentMethod: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
  removeBackupPaymentMethod: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
  deletePaymentMethod: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
  // The credit is the subscription's customer_balance, and the next invoice draws on it; the card
  // charged has a new last charge.
  topUpCredits: async (queryClient) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
      queryClient.invalidateQueries({ queryKey: invoiceKeys.all }),
      queryClient.invalidateQueries({ queryKey: paymentMethodKeys.all }),
    ]);
  },
  payInvoice: afterInvoicePaid,
  // The link's page shows the invoice (an invoice key); a member signed in elsewhere sees the rest.
  payInvoiceByLink: afterInvoicePaid,
  // A plan change moves the plan, the cycle, the balance, the invoices, the default card, what the
  // organization may use, and every preview priced against the old plan (spec §4's refresh list).
  updateSubscription: async (queryClient) => {
    queryClient.removeQueries({ queryKey: subscriptionPreviewKeys.all });
    await Promise.all(
      [
        subscriptionKeys.all,
        planKeys.all,
        usageKeys.all,
        invoiceKeys.all,
        organizationKeys.all,
        paymentMethodKeys.all,
        entitlementKeys.all,
        projectKeys.all,
      ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    );
  },
  cancelScheduledChange: async (queryClient) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
      queryClient.invalidateQueries({ queryKey: planKeys.all }),
    ]);
  },
  // A survey answer is stored for the product team: nothing the screens show changes.
  submitUpgradeFeedback: async () => undefined,
  setSpendAlert: (queryClient) => queryClient.invalidateQueries({ queryKey: spendAlertKeys.all }),
  deleteSpendAlert: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: spendAlertKeys.all }),
  // Webhook endpoints and their deliveries (the list shows each endpoint's last delivery).
  createWebhook: (queryClient) => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  updateWebhook: (queryClient) => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  deleteWebhook: (queryClient) => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  // The endpoint shows until when the replaced secret still signs.
  rotateWebhookSecret: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  testWebhook: (queryClient) => queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  resendWebhookDelivery: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: webhookKeys.all }),
  createAccessToken: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
  revokeAccessToken: (queryClient) =>
    queryClient.invalidateQueries({ queryKey: accessTokenKeys.all }),
};

function nameOf(mutationKey: readonly unknown[] | undefined): MutationName | undefined {
  if (!mutationKey) return undefined;
  return (Object.keys(mutationKeys) as MutationName[]).find(
    (name) => JSON.stringify(mutationKeys[name]) === JSON.stringify(mutationKey),
  );
}

/**
 * The mutations the server records in the audit log: after each, the log has a new entry.
 * (A setup intent records nothing yet: its card is logged when it is attached.)
 */
const WRITES_AUDIT_ENTRIES: ReadonlySet<MutationName> = new Set<MutationName>([
  'updateCustomer',
  'setTaxId',
  'deleteTaxId',
  'updateOrganization',
  'attachPaymentMethod',
  'setDefaultPaymentMethod',
  'setBackupPaymentMethod',
  'removeBackupPaymentMethod',
  'deletePaymentMethod',
  'topUpCredits',
  'payInvoice',
  'updateSubscription',
  'cancelScheduledChange',
  'setSpendAlert',
  'deleteSpendAlert',
  'createWebhook',
  'updateWebhook',
  'deleteWebhook',
  'rotateWebhookSecret',
  'createAccessToken',
  'revokeAccessToken',
]);

export async function invalidateAfterMutation(
  queryClient: QueryClient,
  mutationKey: readonly unknown[] | undefined,
): Promise<void> {
  const name = nameOf(mutationKey);
  if (!name) return;
  await Promise.all([
    AFTER_SUCCESS[name](queryClient),
    WRITES_AUDIT_ENTRIES.has(name)
      ? queryClient.invalidateQueries({ queryKey: auditLogKeys.all })
      : undefined,
  ]);
}
