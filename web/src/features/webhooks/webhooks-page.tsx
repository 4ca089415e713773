import { useRef, useState } from 'react';
import { hasPermission, type Organization } from '@meterline/domain';
import { Plus, Webhook } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PermissionNotice } from '../../components/permission-notice';
import { Button } from '../../components/ui/button';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { useWebhooksQuery } from '../../data/webhooks-query';
import { usePageTitle } from '../../lib/page-title';
import { useOrganizationRole } from '../../session/profile-context';
import { useOrganization } from '../../session/use-organization';
import { AddEndpointDialog } from './add-endpoint-dialog';
import { EndpointCard } from './endpoint-card';

function Endpoints({
  organization,
  onDeleted,
}: {
  organization: Organization;
  onDeleted: () => void;
}) {
  const endpoints = useWebhooksQuery(organization.slug);
  return (
    <div className="space-y-4">
      {endpoints.isPending ? (
        <LoadingRegion label="Loading webhook endpoints" className="space-y-4">
          {[0, 1].map((index) => (
            <div key={index} className="space-y-3 rounded-lg border bg-card p-5">
              <Skeleton className="h-4 w-72" />
              <Skeleton className="h-5 w-48" />
            </div>
          ))}
        </LoadingRegion>
      ) : endpoints.isError ? (
        <ErrorState
          title="Failed to load webhook endpoints"
          error={endpoints.error}
          onRetry={() => void endpoints.refetch()}
        />
      ) : endpoints.data.length === 0 ? (
        <EmptyState
          icon={Webhook}
          title="No webhook endpoints"
          description="Add an endpoint to receive signed billing events: invoices, payments, plan changes, spend alerts, restrictions and top-ups."
        />
      ) : (
        endpoints.data.map((endpoint) => (
          <EndpointCard
            key={endpoint.id}
            slug={organization.slug}
            endpoint={endpoint}
            onDeleted={onDeleted}
          />
        ))
      )}
    </div>
  );
}

/** /org/:slug/webhooks: the organization's signed webhook endpoints (owners and administrators). */
export function WebhooksPage() {
  const organization = useOrganization();
  const role = useOrganizationRole(organization.slug);
  usePageTitle('Webhooks', organization.name);
  const [adding, setAdding] = useState(false);
  const addButton = useRef<HTMLButtonElement>(null);
  // After the dialog has closed (its own focus return finds its opener gone with the card).
  const focusAdd = () => window.setTimeout(() => addButton.current?.focus(), 0);
  const canManage = hasPermission(role, 'billing_write:webhooks');
  return (
    <>
      <PageHeader
        title="Webhooks"
        description={`Billing events of ${organization.name}, posted to your endpoints and signed with a Meterline-Signature header.`}
        actions={
          // One button in one place whatever the list shows: focus comes back to it after the dialog.
          canManage ? (
            <Button ref={addButton} variant="primary" onClick={() => setAdding(true)}>
              <Plus aria-hidden />
              Add endpoint
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <AddEndpointDialog slug={organization.slug} open={adding} onOpenChange={setAdding} />
      ) : null}
      {hasPermission(role, 'billing_read:webhooks') ? (
        <Endpoints organization={organization} onDeleted={focusAdd} />
      ) : (
        <PermissionNotice action="manage this organization's webhooks" />
      )}
    </>
  );
}
