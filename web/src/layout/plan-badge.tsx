import { PLAN_NAMES, type PlanId } from '@meterline/domain';
import { Badge } from '../components/ui/badge';

export function PlanBadge({ planId, className }: { planId: PlanId; className?: string }) {
  return (
    <Badge tone={planId === 'free' ? 'neutral' : 'primary'} className={className}>
      {PLAN_NAMES[planId]}
    </Badge>
  );
}
