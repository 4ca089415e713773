import { PLAN_NAMES } from '@meterline/domain';
import { BarChart3 } from 'lucide-react';
import { EmptyState } from '../../components/empty-state';
import { PageHeader } from '../../components/page-header';
import { useOrganization } from '../organization/use-organization';

/** /org/:slug/usage (also /organization/:slug/usage): the frame; the charts come later. */
export function UsagePage() {
  const organization = useOrganization();
  return (
    <>
      <title>{`Usage · ${organization.name} · Meterline`}</title>
      <PageHeader
        title="Usage"
        description={`Usage of ${organization.name}'s projects against the quota included in its plan.`}
      />
      <EmptyState
        icon={BarChart3}
        title="Usage for the current billing cycle"
        description={`Daily usage per metric, compared with what the ${PLAN_NAMES[organization.plan.id]} plan includes.`}
      />
    </>
  );
}
