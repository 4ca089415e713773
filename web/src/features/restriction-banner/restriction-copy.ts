import {
  billingMetricName,
  formatGraceEnd,
  PLAN_NAMES,
  type PlanId,
  type QuotaMetric,
  type RestrictionBanner,
} from '@meterline/domain';

export interface RestrictionCopy {
  title: string;
  body: string;
}

/** "Egress", "Egress and Database Size", "Egress, Database Size and Storage Size". */
function listOf(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/** What the call to action will do, as the banner's closing sentence. */
function advice(banner: RestrictionBanner): string {
  switch (banner.cta.label) {
    case 'Pay outstanding invoice':
      return 'Pay the outstanding invoice to lift the restriction right away.';
    case 'Upgrade plan':
      return 'Upgrade to a paid plan to raise the quota and keep your projects running normally.';
    case 'Disable spend cap':
      return 'Disable the spend cap to keep services running and pay only for the extra usage.';
    case 'Change spend cap':
      return 'Review the spend cap to keep services running past the quota.';
  }
}

/** The banner's words: calm, specific, and saying what happens next. */
export function restrictionCopy(
  banner: RestrictionBanner,
  context: { planId: PlanId; exceeded: readonly QuotaMetric[]; overduePayment: boolean },
): RestrictionCopy {
  switch (banner.kind) {
    case 'exceededLimits': {
      const names = context.exceeded.map(billingMetricName);
      const what = names.length > 0 ? listOf(names) : 'Some usage';
      const verb = names.length > 1 ? 'are' : 'is';
      return {
        title: 'This organization has gone over the usage included in its plan',
        body: `${what} ${verb} above the ${PLAN_NAMES[context.planId]} plan’s quota for this billing cycle. ${advice(banner)}`,
      };
    }
    case 'gracePeriod':
      return {
        title:
          banner.graceEnd === undefined
            ? 'This organization is in a grace period'
            : `This organization is in a grace period until ${formatGraceEnd(banner.graceEnd)}`,
        body: `It has exceeded its plan’s quota. Nothing is restricted yet: bring usage back under the quota before the grace period ends, or the Fair Use Policy will apply. ${advice(banner)}`,
      };
    case 'gracePeriodOver':
      return {
        title: 'The grace period has ended and the Fair Use Policy now applies',
        body: `This organization is still over its plan’s quota, so its services may be restricted. ${advice(banner)}`,
      };
    case 'restricted':
      return {
        title: 'All services of this organization are restricted',
        body: context.overduePayment
          ? 'Requests to its projects are refused until the overdue invoice is paid. Paying it lifts the restriction right away.'
          : `Requests to its projects are refused until usage is back within the quota. ${advice(banner)}`,
      };
  }
}
