import type { PlanId } from '@meterline/domain';
import { BarChart3 } from 'lucide-react';
import { Link } from '../../../lib/router';
import { Button } from '../../../components/ui/button';
import { Notice } from '../../../components/ui/notice';

/**
 * With the spend cap on, usage stops at the plan's included quota. On free the way past it is a
 * paid plan; on pro it is turning the spend cap off.
 */
export function SpendCapNote({
  planId,
  orgSlug,
  cloudMarketplace = false,
}: {
  planId: PlanId;
  orgSlug: string;
  /** The spend cap cannot be changed for organizations of the cloud-provider marketplace. */
  cloudMarketplace?: boolean;
}) {
  return (
    <Notice
      title="This organization is limited by the usage included in its plan"
      actions={
        // A ghost button's padding would indent its icon past the notice's text.
        <Button size="sm" variant="ghost" className="-ml-3" asChild>
          <Link to={`/org/${encodeURIComponent(orgSlug)}/usage`}>
            <BarChart3 aria-hidden />
            View usage
          </Link>
        </Button>
      }
    >
      {planId === 'free'
        ? 'Usage beyond the Free plan’s quota is not billed: services are limited instead. To go past the quota, upgrade to a paid plan.'
        : cloudMarketplace
          ? 'The spend cap is on, so usage beyond the included quota is not billed and services are limited instead.'
          : 'The spend cap is on, so usage beyond the included quota is not billed and services are limited instead. To keep them running past the quota and pay only for the extra usage, disable the spend cap.'}
    </Notice>
  );
}
