import type { ReactNode } from 'react';
import { ArrowLeft, ExternalLink } from 'lucide-react';
import { Link } from '../../lib/router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { usePageTitle } from '../../lib/page-title';

/**
 * The default target of a partner link: a page the product serves itself, standing in for the
 * partner's console until a real URL is configured.
 */
export function PartnerStandIn({
  partner,
  heading,
  details,
}: {
  partner: string;
  heading: string;
  details: { label: string; value: ReactNode }[];
}) {
  usePageTitle(partner);
  return (
    <main
      id="main"
      className="flex flex-1 flex-col items-center justify-center bg-muted/40 px-4 py-16"
    >
      <div className="w-full max-w-lg">
        <p className="mb-3 flex items-center justify-center gap-1.5 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          <ExternalLink aria-hidden className="size-3.5" />
          Partner console
        </p>
        <Card className="overflow-hidden">
          <div className="px-6 pt-6 pb-5 sm:px-8 sm:pt-8">
            <h1 className="text-xl font-semibold tracking-tight">{heading}</h1>
            <p className="mt-2 text-muted-foreground">
              This page stands in for {partner}'s console. When Meterline is connected to {partner},
              the Manage link opens the real page instead.
            </p>
          </div>
          <dl className="divide-y border-t">
            {details.map(({ label, value }) => (
              <div
                key={label}
                className="flex flex-col gap-1 px-6 py-3 sm:flex-row sm:gap-4 sm:px-8"
              >
                <dt className="w-32 shrink-0 text-muted-foreground">{label}</dt>
                <dd className="min-w-0 font-mono text-[13px] break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </Card>
        <div className="mt-6 flex justify-center">
          <Button variant="ghost" asChild>
            <Link to="/">
              <ArrowLeft aria-hidden />
              Back to Meterline
            </Link>
          </Button>
        </div>
      </div>
    </main>
  );
}
