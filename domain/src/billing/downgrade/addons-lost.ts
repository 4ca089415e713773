import type { AddonType } from '../addons.ts';

/** The shape of one project's entry in a preview's `addons_to_remove`. */
export interface ProjectAddonsToRemove {
  project_ref: string;
  project_name: string;
  addons: readonly { type: AddonType; variant: { name: string; identifier: string } }[];
}

/**
 * The add-ons a downgrade list leaves out (spec §4): log drain, phone MFA and the Micro compute
 * variant. They go too, but a customer does not lose anything worth a line: the Micro size is what the
 * compute credits already paid for, and the other two are usage-billed extras.
 */
export function isIgnoredInDowngradeList(addon: ProjectAddonsToRemove['addons'][number]): boolean {
  if (addon.type === 'log_drain' || addon.type === 'auth_mfa_phone') return true;
  return addon.type === 'compute_instance' && addon.variant.identifier === 'ci_micro';
}

/**
 * The add-ons the confirm modal lists, per project, in the preview's order: the ignored ones left out,
 * and projects with nothing left dropped.
 */
export function addonsLostOnDowngrade(
  addonsToRemove: readonly ProjectAddonsToRemove[],
): ProjectAddonsToRemove[] {
  return addonsToRemove
    .map((project) => ({
      ...project,
      addons: project.addons.filter((addon) => !isIgnoredInDowngradeList(addon)),
    }))
    .filter((project) => project.addons.length > 0);
}
