import type { BillingSource, RestrictionBannerKind } from '@meterline/domain';

/**
 * The `source` a restriction banner's call to action passes to the billing page (and so to
 * analytics). The spec names three; exceeding the limits without a restriction has none.
 */
const SOURCES: Record<RestrictionBannerKind, BillingSource | null> = {
  exceededLimits: null,
  gracePeriod: 'fairUseGracePeriodStarted',
  gracePeriodOver: 'fairUseGracePeriodOver',
  restricted: 'fairUseRestricted',
};

export function restrictionSource(kind: RestrictionBannerKind): BillingSource | null {
  return SOURCES[kind];
}
