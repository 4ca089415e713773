import { spendAlertBanner } from '@meterline/domain';
import { Notice } from '../../components/ui/notice';
import { useSpendAlertQuery } from '../../data/spend-alert-query';

/**
 * The billing page's spend alert banner: the highest threshold the cycle's spend has reached against
 * the budget ("You have used 90% of your $200 monthly budget"), or the projection passing it, with the
 * figures. Nothing without a budget or with nothing reached.
 */
export function SpendAlertBanner({ orgSlug, enabled }: { orgSlug: string; enabled: boolean }) {
  const { data: state } = useSpendAlertQuery(orgSlug, { enabled });
  if (!enabled || !state || state.budget === null) return null;
  const banner = spendAlertBanner({
    budget: state.budget,
    thresholds: state.thresholds,
    spend: state.spend,
    projected: state.projected,
  });
  if (!banner) return null;
  return (
    <div className="mb-5" data-testid="spend-alert-banner">
      <Notice tone={banner.tone} title={banner.title} role="status">
        <p>{banner.detail}</p>
        <p>
          <a
            href="#spend-alerts"
            className="font-medium text-foreground underline underline-offset-2 hover:no-underline"
          >
            Review the budget
          </a>
        </p>
      </Notice>
    </div>
  );
}
