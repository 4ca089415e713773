import { useRef, useState } from 'react';
import { hasPermission, type Organization } from '@meterline/domain';
import { KeyRound, Plus } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';
import { ErrorState } from '../../components/error-state';
import { PageHeader } from '../../components/page-header';
import { PermissionNotice } from '../../components/permission-notice';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { LoadingRegion, Skeleton } from '../../components/ui/skeleton';
import { useAccessTokensQuery } from '../../data/access-tokens-query';
import { usePageTitle } from '../../lib/page-title';
import { useOrganizationRole } from '../../session/profile-context';
import { useOrganization } from '../../session/use-organization';
import { CreateTokenDialog } from './create-token-dialog';
import { TokenList } from './token-list';

function Tokens({
  organization,
  canManage,
  onRevoked,
}: {
  organization: Organization;
  canManage: boolean;
  onRevoked: () => void;
}) {
  const tokens = useAccessTokensQuery(organization.slug);
  if (tokens.isPending) {
    return (
      <LoadingRegion
        label="Loading access tokens"
        className="space-y-3 rounded-lg border bg-card p-5"
      >
        {Array.from({ length: 2 }, (_, index) => (
          <div key={index} className="space-y-2">
            <Skeleton className="h-4 w-56" />
            <Skeleton className="h-4 w-80 max-w-full" />
          </div>
        ))}
      </LoadingRegion>
    );
  }
  if (tokens.isError) {
    return (
      <ErrorState
        title="Failed to load access tokens"
        error={tokens.error}
        onRetry={() => void tokens.refetch()}
      />
    );
  }
  if (tokens.data.length === 0) {
    return (
      <EmptyState
        icon={KeyRound}
        title="No access tokens"
        description="Create a token to let a spreadsheet, a script or your finance tools read this organization's invoices and usage without a password."
      />
    );
  }
  return (
    <TokenList
      slug={organization.slug}
      tokens={tokens.data}
      canManage={canManage}
      onRevoked={onRevoked}
    />
  );
}

/** How a tool uses a token: one request, with this organization's address. */
function UsingATokenCard({ slug }: { slug: string }) {
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  return (
    <Card className="space-y-3 p-5">
      <h2 className="font-semibold">Using a token</h2>
      <p className="text-muted-foreground">
        Send it in the Authorization header of any read of the billing API. Writes are refused, and
        so is every other organization.
      </p>
      <pre className="rounded-md border bg-muted p-3 font-mono text-xs break-all whitespace-pre-wrap">
        {`curl ${origin}/platform/organizations/${slug}/billing/invoices/upcoming \\\n  -H "Authorization: Bearer $MLT_TOKEN"`}
      </pre>
      <p className="text-sm text-muted-foreground">
        Every operation a token can call is marked in the{' '}
        <a
          className="font-medium text-foreground underline underline-offset-2 hover:no-underline"
          href="/platform/docs"
        >
          API reference
        </a>
        , where you can also try one with your token.
      </p>
    </Card>
  );
}

/** /org/:slug/tokens: the organization's access tokens for the billing read API (owners and admins). */
export function AccessTokensPage() {
  const organization = useOrganization();
  const role = useOrganizationRole(organization.slug);
  usePageTitle('Access tokens', organization.name);
  const [creating, setCreating] = useState(false);
  // Each opening is a new dialog: an empty form, and no token of the last one.
  const [openings, setOpenings] = useState(0);
  const createButton = useRef<HTMLButtonElement>(null);
  // After the revoke dialog has closed: its opener went with the row.
  const focusCreate = () => window.setTimeout(() => createButton.current?.focus(), 0);
  const canManage = hasPermission(role, 'billing_write:access_tokens');
  return (
    <>
      <PageHeader
        title="Access tokens"
        description={`Tokens that let your own tools read ${organization.name}'s billing data through the API, without a password.`}
        actions={
          canManage ? (
            <Button
              ref={createButton}
              variant="primary"
              onClick={() => {
                setOpenings((count) => count + 1);
                setCreating(true);
              }}
            >
              <Plus aria-hidden />
              Create token
            </Button>
          ) : null
        }
      />
      {canManage ? (
        <CreateTokenDialog
          key={openings}
          slug={organization.slug}
          open={creating}
          onOpenChange={setCreating}
        />
      ) : null}
      {hasPermission(role, 'billing_read:access_tokens') ? (
        <div className="space-y-6">
          <Tokens organization={organization} canManage={canManage} onRevoked={focusCreate} />
          <UsingATokenCard slug={organization.slug} />
        </div>
      ) : (
        <PermissionNotice action="manage this organization's access tokens" />
      )}
    </>
  );
}
