import { useId } from 'react';
import { effectiveManagedBy, MANAGED_BY_NAMES, type Organization } from '@meterline/domain';
import { ExternalLink, Handshake } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { usePartnerLinkQuery } from '../../data/partner-link-query';

/**
 * Organizations run by a marketplace partner say so, with a way to the partner's console. The
 * button stays disabled until the API has told us where that is.
 */
export function ManagedByBanner({ organization }: { organization: Organization }) {
  const managedBy = effectiveManagedBy(organization);
  const link = usePartnerLinkQuery(organization);
  const hintId = useId();
  if (managedBy === 'platform') return null;

  const partner = MANAGED_BY_NAMES[managedBy];
  const url = link.data?.url;

  return (
    <div role="region" aria-label="Partner management" className="border-b bg-primary-soft/50">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:px-6 lg:px-8">
        <div className="flex min-w-0 flex-1 items-start gap-3 sm:items-center">
          <Handshake aria-hidden className="mt-0.5 size-4 shrink-0 text-primary sm:mt-0" />
          <div className="min-w-0">
            <p className="font-medium">This organization is managed by {partner}.</p>
            {link.isError ? (
              <p className="text-muted-foreground">
                The link to {partner} could not be loaded.{' '}
                <button
                  type="button"
                  className="font-medium text-foreground underline underline-offset-2"
                  onClick={() => void link.refetch()}
                >
                  Try again
                </button>
              </p>
            ) : null}
          </div>
        </div>
        <Button
          size="sm"
          className="self-start sm:self-auto"
          disabled={!url}
          aria-describedby={hintId}
          onClick={() => {
            if (url) window.open(url, '_blank', 'noopener,noreferrer');
          }}
        >
          Manage
          <ExternalLink aria-hidden className="text-muted-foreground" />
        </Button>
        <span id={hintId} className="sr-only">
          Opens {partner} in a new tab
        </span>
      </div>
    </div>
  );
}
