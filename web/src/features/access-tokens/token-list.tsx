import { useState } from 'react';
import {
  accessTokenExpiryState,
  formatInvoiceDate,
  formatInvoiceDateHour,
  type AccessToken,
} from '@meterline/domain';
import { Loader2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { useRevokeAccessTokenMutation } from '../../data/access-token-mutations';
import { Dialog } from '../../payments/ui/dialog';

function RevokeDialog({
  slug,
  token,
  onOpenChange,
  onRevoked,
}: {
  slug: string;
  token: AccessToken | null;
  onOpenChange: (open: boolean) => void;
  onRevoked: () => void;
}) {
  const revoke = useRevokeAccessTokenMutation(slug);
  // mutateAsync: the refetched list drops the row before `mutate`'s callbacks would run.
  const onRevoke = (id: string) =>
    revoke.mutateAsync(id).then(
      () => {
        toast.success('Access token revoked');
        onOpenChange(false);
        onRevoked();
      },
      (error: Error) => toast.error(`Failed to revoke the token: ${error.message}`),
    );
  return (
    <Dialog
      open={token !== null}
      onOpenChange={onOpenChange}
      dismissible={!revoke.isPending}
      size="sm"
      title="Revoke this access token?"
      description="Whatever uses it is refused from its next request. This cannot be undone."
      footer={
        <>
          <Button disabled={revoke.isPending} onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant="destructive"
            disabled={revoke.isPending || token === null}
            onClick={() => token && void onRevoke(token.id)}
          >
            {revoke.isPending ? <Loader2 aria-hidden className="animate-spin" /> : null}
            Revoke token
          </Button>
        </>
      }
    >
      {token ? (
        <p className="text-muted-foreground">
          {token.name} · <code className="font-mono text-[13px]">{token.prefix}…</code>
        </p>
      ) : null}
    </Dialog>
  );
}

function expiryText(token: AccessToken, now: number): string {
  const state = accessTokenExpiryState(token.expires_at, now);
  if (state === 'never' || token.expires_at === null) return 'Never expires';
  const day = formatInvoiceDate(token.expires_at);
  return state === 'expired' ? `Expired ${day}` : `Expires ${day}`;
}

/** The live tokens: name, prefix, who made it and when, last use, expiry; each with "Revoke". */
export function TokenList({
  slug,
  tokens,
  canManage,
  onRevoked,
}: {
  slug: string;
  tokens: AccessToken[];
  canManage: boolean;
  onRevoked: () => void;
}) {
  const [revoking, setRevoking] = useState<AccessToken | null>(null);
  // When the list was opened: a token that expires while it is open is refused by the server anyway.
  const [now] = useState(() => Math.floor(Date.now() / 1000));
  return (
    <Card>
      <ul aria-label="Access tokens" className="divide-y">
        {tokens.map((token) => {
          const expired = accessTokenExpiryState(token.expires_at, now) === 'expired';
          return (
            <li
              key={token.id}
              className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between sm:px-5"
            >
              <div className="min-w-0 space-y-1">
                <div className="flex flex-wrap items-center gap-2">
                  <span className="font-medium break-all">{token.name}</span>
                  <code className="rounded border bg-muted px-1.5 font-mono text-xs">
                    {token.prefix}…
                  </code>
                  {expired ? <Badge tone="destructive">Expired</Badge> : null}
                </div>
                <p className="text-sm text-muted-foreground">
                  Created {formatInvoiceDate(token.created_at)}
                  {token.created_by ? ` by ${token.created_by}` : ''} ·{' '}
                  {token.last_used_at === null
                    ? 'Never used'
                    : `Last used ${formatInvoiceDateHour(token.last_used_at)}`}{' '}
                  · {expiryText(token, now)}
                </p>
              </div>
              {canManage ? (
                <Button
                  size="sm"
                  className="self-start sm:self-center"
                  aria-label={`Revoke ${token.name}`}
                  onClick={() => setRevoking(token)}
                >
                  Revoke
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
      <RevokeDialog
        slug={slug}
        token={revoking}
        onOpenChange={(open) => !open && setRevoking(null)}
        onRevoked={onRevoked}
      />
    </Card>
  );
}
