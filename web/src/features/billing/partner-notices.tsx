import {
  BILLING_PARTNER_NAMES,
  effectiveManagedBy,
  isPartnerManaged,
  MANAGED_BY_NAMES,
  type Organization,
} from '@meterline/domain';
import { ExternalLink } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { usePartnerLinkQuery } from '../../data/partner-link-query';

/** The partner that bills this organization, by the name users know it. */
export function billingPartnerName(organization: Organization): string {
  if (organization.billing_partner) return BILLING_PARTNER_NAMES[organization.billing_partner];
  return MANAGED_BY_NAMES[effectiveManagedBy(organization)];
}

/** Appends a path to the partner link, e.g. the deployment platform's invoices page. */
function withPath(url: string, path: string): string {
  const target = new URL(url, window.location.origin);
  target.pathname = `${target.pathname.replace(/\/+$/, '')}${path}`;
  return target.origin === window.location.origin
    ? `${target.pathname}${target.search}${target.hash}`
    : target.toString();
}

function PartnerLinkButton({
  organization,
  label,
  path = '',
}: {
  organization: Organization;
  label: string;
  path?: string;
}) {
  const link = usePartnerLinkQuery(organization);
  if (!isPartnerManaged(organization)) return null;
  const url = link.data?.url;
  if (!url) {
    return (
      <Button size="sm" disabled>
        {label}
      </Button>
    );
  }
  return (
    <Button size="sm" asChild>
      <a href={withPath(url, path)} target="_blank" rel="noopener noreferrer">
        {label}
        <ExternalLink aria-hidden className="text-muted-foreground" />
      </a>
    </Button>
  );
}

/**
 * Billed via a partner, invoices are issued by the partner: the section points there instead. The
 * deployment platform keeps them on its installation's invoices page; the cloud provider in its
 * billing console.
 */
export function PartnerInvoicesNotice({ organization }: { organization: Organization }) {
  const partner = billingPartnerName(organization);
  const managed = isPartnerManaged(organization);
  return (
    <Notice
      title={`Invoices for this organization are issued by ${partner}.`}
      actions={
        <PartnerLinkButton
          organization={organization}
          label={`View invoices on ${partner}`}
          path={effectiveManagedBy(organization) === 'vercel-marketplace' ? '/invoices' : ''}
        />
      }
    >
      {managed
        ? `You can view, download and pay them in your ${partner} account.`
        : `You can view, download and pay them in your ${partner} dashboard.`}
    </Notice>
  );
}

/** Billed via a partner, the address and tax ID on invoices are the ones kept by the partner. */
export function PartnerAddressNotice({ organization }: { organization: Organization }) {
  const partner = billingPartnerName(organization);
  return (
    <Notice
      title={`The billing address for this organization is kept by ${partner}.`}
      actions={<PartnerLinkButton organization={organization} label={`Open ${partner}`} />}
    >
      {`Update the address and tax ID in your ${partner} account.`}
    </Notice>
  );
}

const MANAGED_COPY = {
  plan: {
    title: (partner: string) => `This organization's plan is managed by ${partner}.`,
    body: (partner: string) => `Plan changes are made in your ${partner} account.`,
  },
  'payment-methods': {
    title: (partner: string) => `Payment for this organization is managed by ${partner}.`,
    body: (partner: string) => `Add or change payment methods in your ${partner} account.`,
  },
} as const;

/** Partner-managed organizations change their plan and payment methods at the partner. */
export function PartnerManagedNotice({
  organization,
  subject,
}: {
  organization: Organization;
  subject: keyof typeof MANAGED_COPY;
}) {
  const partner = MANAGED_BY_NAMES[effectiveManagedBy(organization)];
  const copy = MANAGED_COPY[subject];
  return (
    <Notice
      title={copy.title(partner)}
      actions={<PartnerLinkButton organization={organization} label={`Manage on ${partner}`} />}
    >
      {copy.body(partner)}
    </Notice>
  );
}
