import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import {
  hasPermission,
  visibleBillingSections,
  type Organization,
  type PlanId,
  type Role,
} from '@meterline/domain';
import { useSubscriptionQuery } from '../data/subscription-query';
import { useOnceOpened } from '../lib/use-once-opened';
import { ScheduledChangeNotice } from '../features/downgrade-flow/scheduled-change-notice';
import { BillingPage } from '../features/billing/billing-page';
import { useBillingPanel } from '../features/billing/use-billing-panel';
import { SpendAlertBanner } from '../features/spend-alerts/spend-alert-banner';
import { SpendAlertsContent } from '../features/spend-alerts/spend-alerts-content';
import { useOrganizationRole, useProfile } from '../session/profile-context';
import { useOrganization } from '../session/use-organization';

// The panels and dialogs that change the plan load when first wanted, not with the page: each is its
// own chunk, fetched on intent (a pointer or the focus entering the sections whose buttons open them)
// and mounted once first opened, then kept (so it can animate closed).
const loadPlanPanel = () => import('../features/plan-panel/plan-panel');
const loadSpendCapPanel = () => import('../features/spend-cap-panel/spend-cap-panel');
const loadUpgradeDialog = () => import('../features/upgrade-dialog/upgrade-dialog');
const loadUpgradeSurvey = () => import('../features/upgrade-survey/upgrade-survey-dialog');
const loadDowngradeFlow = () => import('../features/downgrade-flow/downgrade-flow');
const PlanPanel = lazy(async () => ({ default: (await loadPlanPanel()).PlanPanel }));
const SpendCapPanel = lazy(async () => ({ default: (await loadSpendCapPanel()).SpendCapPanel }));
const UpgradeDialog = lazy(async () => ({ default: (await loadUpgradeDialog()).UpgradeDialog }));
const UpgradeSurveyDialog = lazy(async () => ({
  default: (await loadUpgradeSurvey()).UpgradeSurveyDialog,
}));
const DowngradeFlow = lazy(async () => ({ default: (await loadDowngradeFlow()).DowngradeFlow }));

/** The sections whose buttons open the plan's panels and dialogs. */
const INTENT_SECTIONS = '#subscription, #cost-control';

/**
 * Fetches the plan's panels and dialogs once the user reaches for them: a pointer or the focus entering
 * one of the sections whose buttons open them. One listener on the document, bound once, whichever
 * sections are on the page yet, and gone after the first fetch.
 */
function usePrefetchOnIntent() {
  useEffect(() => {
    const prefetch = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest(INTENT_SECTIONS)) return;
      stop();
      for (const load of [loadPlanPanel, loadSpendCapPanel, loadUpgradeDialog, loadDowngradeFlow]) {
        void load().catch(() => undefined);
      }
    };
    const stop = () => {
      document.removeEventListener('pointerover', prefetch);
      document.removeEventListener('focusin', prefetch);
    };
    document.addEventListener('pointerover', prefetch);
    document.addEventListener('focusin', prefetch);
    return stop;
  }, []);
}

/** What the downgrade flow (confirm, members-limit or exit survey, then the change) is given. */
export interface DowngradeFlowSlotProps {
  organization: Organization;
  role: Role | null;
  /** The plan chosen with "Downgrade to X"; null when no downgrade is under way. */
  target: PlanId | null;
  /** Closes the flow without a change (cancel, or the members modal dismissed). */
  onClose: () => void;
  /** The downgrade went through (or was scheduled): the plan panel closes too. */
  onDowngraded: () => void;
}

export type RenderDowngradeFlow = (props: DowngradeFlowSlotProps) => ReactNode;

/**
 * /org/:slug/billing with the plan changes around it: the plan panel opened by `?panel=subscriptionPlan`
 * and the spend cap panel by `?panel=costControl`;
 * "Upgrade to X" opens the upgrade dialog, whose success closes the panel and opens the upgrade survey;
 * "Downgrade to X" hands the target to `renderDowngradeFlow`.
 */
export function BillingRoute({
  renderDowngradeFlow = defaultDowngradeFlow,
}: {
  renderDowngradeFlow?: RenderDowngradeFlow;
}) {
  const organization = useOrganization();
  const role = useOrganizationRole(organization.slug);
  const profile = useProfile();
  // The spend alerts section shows where the domain says it does; the banner goes with it.
  const spendAlertsShown =
    hasPermission(role, 'billing_read:subscriptions') &&
    visibleBillingSections({
      disabledFeatures: profile.disabled_features,
      planId: organization.plan.id,
      billedViaPartner: organization.billing_via_partner,
    }).includes('spend-alerts');
  return (
    <BillingPage
      subscriptionExtra={<ScheduledChange organization={organization} role={role} />}
      banner={<SpendAlertBanner orgSlug={organization.slug} enabled={spendAlertsShown} />}
      spendAlerts={
        spendAlertsShown ? (
          <SpendAlertsContent
            key={organization.slug}
            orgSlug={organization.slug}
            canWrite={hasPermission(role, 'billing_write:subscriptions')}
          />
        ) : null
      }
      panels={
        <PlanChanges
          // A new organization starts with nothing open.
          key={organization.slug}
          organization={organization}
          role={role}
          renderDowngradeFlow={renderDowngradeFlow}
        />
      }
    />
  );
}

/** The downgrade flow of features/downgrade-flow, open while a target is chosen. */
function DefaultDowngradeFlow({
  organization,
  target,
  onClose,
  onDowngraded,
}: DowngradeFlowSlotProps) {
  const profile = useProfile();
  if (!target) return null;
  return (
    <Suspense fallback={null}>
      <DowngradeFlow
        orgSlug={organization.slug}
        organizationName={organization.name}
        currentPlan={organization.plan.id}
        targetPlan={target}
        projectUpdatesDisabled={profile.project_updates_disabled}
        onClose={onClose}
        onDone={onDowngraded}
      />
    </Suspense>
  );
}

const defaultDowngradeFlow: RenderDowngradeFlow = (props) => <DefaultDowngradeFlow {...props} />;

/** A hosting-partner downgrade waiting for the cycle's end, with its cancel button. */
function ScheduledChange({
  organization,
  role,
}: {
  organization: Organization;
  role: Role | null;
}) {
  const profile = useProfile();
  const subscription = useSubscriptionQuery(organization.slug, {
    enabled: hasPermission(role, 'billing_read:subscriptions'),
  });
  return (
    <ScheduledChangeNotice
      orgSlug={organization.slug}
      scheduled={subscription.data?.scheduled_plan_change ?? null}
      canWrite={hasPermission(role, 'billing_write:subscriptions')}
      projectUpdatesDisabled={profile.project_updates_disabled}
    />
  );
}

function PlanChanges({
  organization,
  role,
  renderDowngradeFlow,
}: {
  organization: Organization;
  role: Role | null;
  renderDowngradeFlow?: RenderDowngradeFlow;
}) {
  const { panel, openPanel, closePanel } = useBillingPanel();
  const profile = useProfile();
  const [upgradeTarget, setUpgradeTarget] = useState<PlanId | null>(null);
  const [downgradeTarget, setDowngradeTarget] = useState<PlanId | null>(null);
  const [survey, setSurvey] = useState<{ from: PlanId; to: PlanId } | null>(null);

  usePrefetchOnIntent();
  const planPanelMounted = useOnceOpened(panel === 'subscriptionPlan');
  const spendCapMounted = useOnceOpened(panel === 'costControl');
  const upgradeMounted = useOnceOpened(upgradeTarget !== null);
  const surveyMounted = useOnceOpened(survey !== null);

  return (
    <>
      {planPanelMounted ? (
        <Suspense fallback={null}>
          <PlanPanel
            organization={organization}
            role={role}
            open={panel === 'subscriptionPlan'}
            onOpenChange={(open) => {
              if (!open) closePanel();
            }}
            onUpgrade={setUpgradeTarget}
            onDowngrade={setDowngradeTarget}
          />
        </Suspense>
      ) : null}
      {spendCapMounted ? (
        <Suspense fallback={null}>
          <SpendCapPanel
            organization={organization}
            role={role}
            projectUpdatesDisabled={profile.project_updates_disabled}
            open={panel === 'costControl'}
            onOpenChange={(open) => {
              if (!open) closePanel();
            }}
            onUpgradePlan={() => openPanel('subscriptionPlan')}
          />
        </Suspense>
      ) : null}
      {upgradeMounted ? (
        <Suspense fallback={null}>
          <UpgradeDialog
            organization={organization}
            role={role}
            target={upgradeTarget}
            onClose={() => setUpgradeTarget(null)}
            onUpgraded={(change) => {
              setUpgradeTarget(null);
              closePanel();
              setSurvey(change);
            }}
          />
        </Suspense>
      ) : null}
      {surveyMounted ? (
        <Suspense fallback={null}>
          <UpgradeSurveyDialog
            orgSlug={organization.slug}
            change={survey}
            onClose={() => setSurvey(null)}
          />
        </Suspense>
      ) : null}
      {renderDowngradeFlow?.({
        organization,
        role,
        target: downgradeTarget,
        onClose: () => setDowngradeTarget(null),
        onDowngraded: () => {
          setDowngradeTarget(null);
          closePanel();
        },
      })}
    </>
  );
}
