import { PROJECT_STATUS_NAMES, type ComputeSize, type ProjectStatus } from '@meterline/domain';
import { Badge, type BadgeTone } from './ui/badge';
import { cn } from '../lib/cn';

// Pure display names; a candidate for the domain package next to COMPUTE_SIZES.
const COMPUTE_SIZE_NAMES: Record<ComputeSize, string> = {
  nano: 'Nano',
  micro: 'Micro',
  small: 'Small',
  medium: 'Medium',
  large: 'Large',
  xlarge: 'XL',
  '2xlarge': '2XL',
  '4xlarge': '4XL',
  '8xlarge': '8XL',
  '12xlarge': '12XL',
  '16xlarge': '16XL',
};

export function computeSizeName(size: ComputeSize): string {
  return COMPUTE_SIZE_NAMES[size];
}

const STATUS_TONES: Record<ProjectStatus, { tone: BadgeTone; dot: string }> = {
  ACTIVE_HEALTHY: { tone: 'success', dot: 'bg-success' },
  COMING_UP: { tone: 'warning', dot: 'bg-warning' },
  GOING_DOWN: { tone: 'warning', dot: 'bg-warning' },
  INACTIVE: { tone: 'neutral', dot: 'bg-muted-foreground/60' },
};

export function ProjectStatusBadge({ status }: { status: ProjectStatus }) {
  const { tone, dot } = STATUS_TONES[status];
  return (
    <Badge tone={tone}>
      <span aria-hidden className={cn('size-1.5 rounded-full', dot)} />
      {PROJECT_STATUS_NAMES[status]}
    </Badge>
  );
}
