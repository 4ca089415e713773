export const PROJECT_STATUSES = ['ACTIVE_HEALTHY', 'COMING_UP', 'INACTIVE', 'GOING_DOWN'] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

export const PROJECT_STATUS_NAMES: Record<ProjectStatus, string> = {
  ACTIVE_HEALTHY: 'Active',
  COMING_UP: 'Coming up',
  INACTIVE: 'Inactive',
  GOING_DOWN: 'Going down',
};

export const COMPUTE_SIZES = [
  'nano',
  'micro',
  'small',
  'medium',
  'large',
  'xlarge',
  '2xlarge',
  '4xlarge',
  '8xlarge',
  '12xlarge',
  '16xlarge',
] as const;
export type ComputeSize = (typeof COMPUTE_SIZES)[number];

export function isActiveProject(status: ProjectStatus): boolean {
  return status === 'ACTIVE_HEALTHY' || status === 'COMING_UP';
}

/** Stable project refs: the org slug's letters and digits, cut to 12 characters, then the number. */
export function projectRef(orgSlug: string, projectNumber: number): string {
  const stem = orgSlug
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 12);
  return `${stem}${projectNumber}`;
}
