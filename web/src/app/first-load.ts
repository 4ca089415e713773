import { INVOICE_PAGE_SIZE, hasPermission, type Permission } from '@meterline/domain';
import type { QueryClient } from '@tanstack/react-query';
import { customerQueryOptions } from '../data/customer-query';
import { invoicesCountQueryOptions } from '../data/invoices-count-query';
import { invoicesQueryOptions } from '../data/invoices-query';
import { organizationQueryOptions } from '../data/organization-query';
import { organizationsQueryOptions } from '../data/organizations-query';
import { orgUsageQueryOptions } from '../data/org-usage-query';
import { paymentMethodsQueryOptions } from '../data/payment-methods-query';
import { plansQueryOptions } from '../data/plans-query';
import { profileQueryOptions } from '../data/profile-query';
import { spendAlertQueryOptions } from '../data/spend-alert-query';
import { subscriptionQueryOptions } from '../data/subscription-query';
import { taxIdQueryOptions } from '../data/tax-id-query';
import { upcomingInvoiceQueryOptions } from '../data/upcoming-invoice-query';
import { lastOrganization, lastRole, PLACEHOLDER_SLUG } from '../lib/last-organization';

/** `/org/:slug/...` (and the spec's `/organization/:slug/usage`): the organization and the page. */
const ORGANIZATION_PAGE = /^\/org(?:anization)?\/([^/]+)(?:\/([^/]+))?\/?$/;

/**
 * What the first render will ask for, from the address alone. Each page otherwise reads in steps (the
 * profile, then the organization, then the page's own reads); started here together, before React renders,
 * no read of the first load waits for another's answer. The components then find each read in flight or
 * answered (the same query options as their hooks). Reads the member's role does not allow are left out
 * when the role is known from an earlier visit; a visitor without a session gets 401s and the sign-in
 * page, as before.
 */
export function firstLoadReads(pathname: string): Read[] {
  if (pathname.startsWith('/sign-in') || pathname.startsWith('/pay/')) return [];
  const reads: Read[] = [(client) => client.prefetchQuery(profileQueryOptions())];
  const match = ORGANIZATION_PAGE.exec(pathname);
  let slug = match?.[1] === undefined ? null : safeDecode(match[1]);
  // `_` is the organization last visited, which the organizations list confirms later.
  if (slug === PLACEHOLDER_SLUG) slug = lastOrganization();
  if (!slug) return reads;
  const org = slug;
  reads.push(
    (client) => client.prefetchQuery(organizationsQueryOptions()),
    (client) => client.prefetchQuery(organizationQueryOptions(org)),
    (client) => client.prefetchQuery(orgUsageQueryOptions(org)),
  );
  if (match?.[2] !== 'billing') return reads;
  reads.push(
    (client) => client.prefetchQuery(subscriptionQueryOptions(org)),
    (client) => client.prefetchQuery(upcomingInvoiceQueryOptions(org)),
    (client) => client.prefetchQuery(plansQueryOptions(org)),
    (client) => client.prefetchQuery(spendAlertQueryOptions(org)),
    (client) => client.prefetchQuery(invoicesCountQueryOptions(org)),
    (client) => client.prefetchQuery(invoicesQueryOptions(org, 0, INVOICE_PAGE_SIZE)),
  );
  // The cards, address and tax IDs only for a role that may read them, as the profile last said (on a
  // first visit nothing is known: they are started, and a refused one is never shown).
  const role = lastRole(org);
  const mayRead = (permission: Permission) => role === null || hasPermission(role, permission);
  if (mayRead('billing_read:payment_methods')) {
    reads.push((client) => client.prefetchQuery(paymentMethodsQueryOptions(org)));
  }
  if (mayRead('billing_read:customer')) {
    reads.push((client) => client.prefetchQuery(customerQueryOptions(org)));
  }
  if (mayRead('billing_read:tax_ids')) {
    reads.push((client) => client.prefetchQuery(taxIdQueryOptions(org)));
  }
  return reads;
}

/** One read of the first load, started on the app's query client. */
export type Read = (client: QueryClient) => Promise<void>;

/** Starts the first load's reads (errors are the components' to show, when they ask). */
export function startFirstLoad(client: QueryClient, pathname: string): void {
  for (const read of firstLoadReads(pathname)) void read(client);
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}
