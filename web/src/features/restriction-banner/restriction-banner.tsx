import {
  exceededCappedMetrics,
  hasPermission,
  restrictionBanner,
  VIOLATIONS,
  type Organization,
  type RestrictionBanner as Banner,
} from '@meterline/domain';
import { AlertTriangle, BarChart3, CreditCard, OctagonAlert } from 'lucide-react';
import { Link, useLocation } from '../../lib/router';
import { useOrganizationRole } from '../../session/profile-context';
import { Button } from '../../components/ui/button';
import { useOrgUsageQuery } from '../../data/org-usage-query';
import { cn } from '../../lib/cn';
import { restrictionSource } from '../../lib/restriction-source';
import { PayOutstandingInvoiceButton } from './pay-outstanding-invoice-button';
import { restrictionCopy } from './restriction-copy';

const VARIANTS = {
  destructive: {
    band: 'border-destructive/30 bg-destructive-soft',
    icon: 'text-destructive',
    Icon: OctagonAlert,
  },
  warning: { band: 'border-warning/40 bg-warning-soft', icon: 'text-warning', Icon: AlertTriangle },
} as const;

function isUsagePage(pathname: string): boolean {
  return /\/usage\/?$/.test(pathname);
}

/**
 * The usage-limit and restriction banner of every organization page (spec §4): from the
 * organization's restriction state and, without one, from its capped usage going over the quota.
 */
export function RestrictionBanner({ organization }: { organization: Organization }) {
  const { pathname } = useLocation();
  const role = useOrganizationRole(organization.slug);
  const usage = useOrgUsageQuery(organization.slug, {
    enabled: hasPermission(role, 'billing_read:subscriptions'),
  });
  const usages = usage.data?.usages ?? [];
  const banner = restrictionBanner({
    org: organization,
    usages,
    usageBillingEnabled: usage.data?.usage_billing_enabled,
  });
  if (!banner) return null;

  const violations = organization.restriction_data?.violations ?? [];
  const overduePayment = violations.includes('overdue_payment');
  const copy = restrictionCopy(banner, {
    planId: organization.plan.id,
    exceeded: exceededCappedMetrics(usages),
    overduePayment,
  });
  const base = `/org/${encodeURIComponent(organization.slug)}`;
  const { band, icon, Icon } = VARIANTS[banner.variant];

  return (
    <div
      role="region"
      aria-label="Usage limits"
      data-variant={banner.variant}
      className={cn('border-b', band)}
    >
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-3 px-4 py-3 sm:px-6 md:flex-row md:items-center lg:px-8">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <Icon aria-hidden className={cn('mt-0.5 size-4 shrink-0', icon)} />
          <div className="min-w-0 space-y-1">
            <p className="font-medium">{copy.title}</p>
            <p className="text-muted-foreground">{copy.body}</p>
            {violations.length > 0 && banner.kind !== 'exceededLimits' ? (
              <ul aria-label="Violations" className="flex flex-wrap gap-1.5 pt-0.5">
                {violations.map((code) => (
                  <li
                    key={code}
                    className="rounded-full border border-current/15 bg-card/60 px-2 text-xs leading-5 font-medium"
                  >
                    {VIOLATIONS[code]}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2 pl-7 md:pl-0">
          <CallToAction banner={banner} slug={organization.slug} base={base} />
          {banner.secondaryCta ? (
            <Button size="sm" asChild>
              <Link to={`${base}/billing#${banner.secondaryCta.section}`}>
                <CreditCard aria-hidden />
                {banner.secondaryCta.label}
              </Link>
            </Button>
          ) : null}
          {isUsagePage(pathname) ? null : (
            <Button size="sm" asChild>
              <Link to={`${base}/usage`}>
                <BarChart3 aria-hidden />
                View usage
              </Link>
            </Button>
          )}
        </div>
      </div>
    </div>
  );
}

/** The banner's main action: a side panel of the billing page, or Pay Now for the overdue invoice. */
function CallToAction({ banner, slug, base }: { banner: Banner; slug: string; base: string }) {
  const { cta } = banner;
  if ('action' in cta) return <PayOutstandingInvoiceButton slug={slug} label={cta.label} />;
  const query = new URLSearchParams({ panel: cta.panel });
  const source = restrictionSource(banner.kind);
  if (source) query.set('source', source);
  return (
    <Button size="sm" variant="primary" asChild>
      <Link to={`${base}/billing?${query.toString()}`}>{cta.label}</Link>
    </Button>
  );
}
