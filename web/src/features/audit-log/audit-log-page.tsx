import { hasPermission, isAuditAction, type Organization } from '@meterline/domain';
import { Download, ScrollText } from 'lucide-react';
import { useSearchParams } from '../../lib/router';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PermissionNotice } from '../../components/permission-notice';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import {
  activeAuditLogFilters,
  useAuditLogQuery,
  type AuditLogFilters,
} from '../../data/audit-log-query';
import { auditLogExportPath } from '../../data/export-paths';
import { usePaymentMethodsQuery } from '../../data/payment-methods-query';
import { usePageTitle } from '../../lib/page-title';
import { useNow } from '../../lib/use-now';
import { useOrganizationRole } from '../../session/profile-context';
import { useOrganization } from '../../session/use-organization';
import { AuditEntry } from './audit-entry';
import { AuditLogFiltersForm } from './audit-log-filters';

/** The filters live in the address (?action=&actor=&since=&until=): a filtered view can be shared. */
function useFilters(): [AuditLogFilters, (filters: AuditLogFilters) => void] {
  const [params, setParams] = useSearchParams();
  const action = params.get('action') ?? '';
  const filters = activeAuditLogFilters({
    ...(isAuditAction(action) ? { action } : {}),
    actor: params.get('actor') ?? undefined,
    since: params.get('since') ?? undefined,
    until: params.get('until') ?? undefined,
  });
  const apply = (next: AuditLogFilters) =>
    setParams(new URLSearchParams({ ...activeAuditLogFilters(next) }), { replace: true });
  return [filters, apply];
}

function Entries({
  organization,
  filters,
}: {
  organization: Organization;
  filters: AuditLogFilters;
}) {
  const log = useAuditLogQuery(organization.slug, filters);
  const now = useNow();
  // The cards on file today: a card an entry names that is not among them reads as removed.
  const role = useOrganizationRole(organization.slug);
  const methods = usePaymentMethodsQuery(organization.slug, {
    enabled: hasPermission(role, 'billing_read:payment_methods'),
  });
  const cardsOnFile = methods.data
    ? new Set(methods.data.data.map((method) => method.id))
    : undefined;
  if (log.isPending) {
    return (
      <LoadingRegion
        label="Loading the audit log"
        className="space-y-4 rounded-lg border bg-card p-5"
      >
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className="space-y-2">
            <Skeleton className="h-4 w-96 max-w-full" />
            <Skeleton className="h-3 w-48" />
          </div>
        ))}
      </LoadingRegion>
    );
  }
  if (log.isError) {
    return (
      <ErrorState
        title="Failed to load the audit log"
        error={log.error}
        onRetry={() => void log.refetch()}
      />
    );
  }
  const entries = log.data.pages.flatMap((page) => page.entries);
  if (entries.length === 0) {
    const filtered = Object.keys(filters).length > 0;
    return (
      <EmptyState
        icon={ScrollText}
        title={filtered ? 'No entries match these filters' : 'No billing changes yet'}
        description={
          filtered
            ? 'Try another action, actor or date range, or clear the filters.'
            : 'Every change to the plan, the spend cap, cards, credits, billing details, webhooks and access tokens will be listed here.'
        }
      />
    );
  }
  return (
    <div className="space-y-4">
      <Card>
        <ul className="divide-y" aria-label="Audit log entries">
          {entries.map((entry) => (
            <AuditEntry key={entry.id} entry={entry} now={now} cardsOnFile={cardsOnFile} />
          ))}
        </ul>
      </Card>
      <div className="flex flex-col items-center gap-2">
        {log.hasNextPage ? (
          <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Load more'}
          </Button>
        ) : (
          <p className="text-sm text-muted-foreground">
            {entries.length === 1
              ? 'This is the only entry.'
              : `All ${entries.length} entries are shown.`}
          </p>
        )}
        {log.isFetchNextPageError ? (
          <p role="alert" className="text-sm text-destructive">
            The next entries could not be loaded. Please try again.
          </p>
        ) : null}
      </div>
    </div>
  );
}

/** /org/:slug/audit-log: who changed what in billing, when and from where (owners and admins). */
export function AuditLogPage() {
  const organization = useOrganization();
  const role = useOrganizationRole(organization.slug);
  usePageTitle('Audit log', organization.name);
  const [filters, setFilters] = useFilters();
  const canRead = hasPermission(role, 'billing_read:audit_log');
  return (
    <>
      <PageHeader
        title="Audit log"
        description={`Every change to ${organization.name}'s billing: who made it, when and from where. Times are in UTC.`}
        actions={
          canRead ? (
            <Button asChild>
              <a href={auditLogExportPath(organization.slug, { ...filters })} download>
                <Download aria-hidden />
                Export CSV
              </a>
            </Button>
          ) : null
        }
      />
      {canRead ? (
        <div className="space-y-6">
          <AuditLogFiltersForm
            key={JSON.stringify(filters)}
            value={filters}
            onChange={setFilters}
          />
          <Entries organization={organization} filters={filters} />
        </div>
      ) : (
        <PermissionNotice action="view this organization's audit log" />
      )}
    </>
  );
}
