import { hasPermission } from '@meterline/domain';
import type { ReactNode } from 'react';
import { useSearchParams } from '../lib/router';
import { useProfileQuery } from '../data/profile-query';
import { PayByLinkPage } from '../features/pay/pay-by-link-page';
import { AppHeader } from '../layout/app-header';
import { PageSkeleton } from '../layout/page-skeleton';
import { RequireAuth } from './require-auth';

/**
 * /pay/invoices/:invoiceId. Without a key (the billing page's Pay Now): the member's page, behind a
 * session. With the signed link's key (the billing emails' Pay Now): the member's page for a signed-in
 * member who may pay (the saved cards are offered), and for anyone else the link's own page, which takes
 * a new card and nothing else.
 */
export function PayInvoiceRoute({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const key = params.get('key');
  const slug = params.get('org') ?? '';
  const profile = useProfileQuery();

  if (!key) return <RequireAuth>{children}</RequireAuth>;
  if (profile.data === undefined && !profile.isError) {
    return (
      <>
        <AppHeader loading />
        <PageSkeleton label="Loading invoice" />
      </>
    );
  }
  const membership = profile.data?.organizations.find((org) => org.slug === slug);
  if (membership && hasPermission(membership.role, 'billing_write:subscriptions')) {
    return <RequireAuth>{children}</RequireAuth>;
  }
  return <PayByLinkPage />;
}
