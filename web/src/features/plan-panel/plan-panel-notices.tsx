import {
  AWS_MARKETPLACE_MESSAGE,
  BILLING_PARTNER_NAMES,
  CHANGES_DISABLED_MESSAGE,
  NO_PLAN_PERMISSION_MESSAGE,
  VERCEL_MARKETPLACE_MESSAGE,
  effectiveManagedBy,
  isActiveProject,
  MANAGED_BY_NAMES,
  type Organization,
  type Subscription,
} from '@meterline/domain';
import { ExternalLink } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';
import { usePartnerLinkQuery } from '../../data/partner-link-query';
import { useProjectsQuery } from '../../data/projects-query';

export const NO_ACTIVE_PROJECTS_TITLE = 'This organization has no active projects';

/**
 * What the panel says above the cards: the global switch, the partner, why the cards' changes are
 * disabled (read without hovering a button), idle projects.
 */
export function PlanPanelNotices({
  organization,
  subscription,
  projectUpdatesDisabled,
  blockers,
}: {
  organization: Organization;
  subscription: Subscription;
  projectUpdatesDisabled: boolean;
  /** The reasons the plan cards' buttons are disabled, as their tooltips give them. */
  blockers: readonly string[];
}) {
  const managedElsewhere = effectiveManagedBy(organization) !== 'platform';
  // The global switch and the partner have notices of their own.
  const explained = new Set<string>([
    CHANGES_DISABLED_MESSAGE,
    ...(managedElsewhere ? [AWS_MARKETPLACE_MESSAGE, VERCEL_MARKETPLACE_MESSAGE] : []),
  ]);
  const reasons = [...new Set(blockers)].filter((reason) => !explained.has(reason));
  return (
    <>
      {projectUpdatesDisabled ? (
        <Notice tone="warning" title="Plan changes are temporarily disabled">
          {CHANGES_DISABLED_MESSAGE}
        </Notice>
      ) : null}
      <PartnerNotice organization={organization} subscription={subscription} />
      <DisabledChangesNotice reasons={reasons} />
      <NoActiveProjectsNotice slug={organization.slug} />
    </>
  );
}

function PartnerNotice({
  organization,
  subscription,
}: {
  organization: Organization;
  subscription: Subscription;
}) {
  const managedBy = effectiveManagedBy(organization);
  const link = usePartnerLinkQuery(organization);
  if (managedBy !== 'platform') {
    const partner = MANAGED_BY_NAMES[managedBy];
    const url = link.data?.url;
    return (
      <Notice
        title={`This organization is managed by ${partner}.`}
        actions={
          url ? (
            <Button size="sm" asChild>
              <a href={url} target="_blank" rel="noopener noreferrer">
                Manage on {partner}
                <ExternalLink aria-hidden className="text-muted-foreground" />
              </a>
            </Button>
          ) : (
            <Button size="sm" disabled>
              Manage on {partner}
            </Button>
          )
        }
      >
        {managedBy === 'vercel-marketplace'
          ? `Its plan is changed in your ${partner} account. Only a downgrade to the Free plan can be made here.`
          : `Its plan is changed in your ${partner} account.`}
      </Notice>
    );
  }
  if (subscription.billing_partner === 'fly') {
    const partner = BILLING_PARTNER_NAMES.fly;
    return (
      <Notice title={`${partner} bills this organization.`}>
        An upgrade takes effect at once. A downgrade takes effect at the end of the billing cycle;
        until then the current plan stays.
      </Notice>
    );
  }
  return null;
}

/** Why the plan cards' changes are disabled, once at the top rather than in each button's tooltip. */
function DisabledChangesNotice({ reasons }: { reasons: string[] }) {
  const [first] = reasons;
  if (first === undefined) return null;
  const permission = reasons.includes(NO_PLAN_PERMISSION_MESSAGE);
  const contact = permission
    ? 'Contact your organization owner or administrator for assistance.'
    : null;
  if (reasons.length === 1) {
    return (
      <Notice tone="lock" title={first}>
        {contact}
      </Notice>
    );
  }
  return (
    <Notice tone="lock" title="Plan changes are not available">
      <ul className="list-disc space-y-1 pl-5">
        {reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      {contact ? <p className="mt-1">{contact}</p> : null}
    </Notice>
  );
}

/** A paid plan with nothing running is worth a second look before changing it (spec §4). */
function NoActiveProjectsNotice({ slug }: { slug: string }) {
  const projects = useProjectsQuery(slug);
  if (!projects.data || projects.data.some((project) => isActiveProject(project.status))) {
    return null;
  }
  return (
    <Notice tone="warning" title={NO_ACTIVE_PROJECTS_TITLE}>
      {projects.data.length === 0
        ? 'A plan is billed whether or not projects run. Create a project to make use of it.'
        : 'Every project is paused or shutting down. A plan is billed whether or not projects run: restore a project to make use of it.'}
    </Notice>
  );
}
