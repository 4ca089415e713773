import type { ReactNode } from 'react';
import {
  hasPermission,
  SECTION_READ_PERMISSION,
  type BillingSection as Section,
  type Organization,
  type Role,
} from '@meterline/domain';
import { PermissionNotice } from '../../components/permission-notice';
import { SECTION_COPY } from './billing-sections';

/** What every section component receives from the billing page. */
export interface BillingSectionProps {
  organization: Organization;
  role: Role | null;
  /** What app/ composes into the section (the subscription's scheduled change). */
  extra?: ReactNode;
}

/**
 * The frame of one billing section: its anchor, heading and one-line purpose, then either its
 * content or, without the section's read permission, the spec's notice instead.
 */
export function BillingSection({
  section,
  role,
  children,
}: {
  section: Section;
  role: Role | null;
  children?: ReactNode;
}) {
  const { title, description, deniedAction } = SECTION_COPY[section];
  const headingId = `${section}-heading`;
  const allowed = hasPermission(role, SECTION_READ_PERMISSION[section]);
  const body = allowed ? children : <PermissionNotice action={deniedAction} />;

  return (
    <section
      id={section}
      aria-labelledby={headingId}
      className="scroll-mt-32 rounded-lg border bg-card shadow-card"
    >
      <header className="px-5 py-4 sm:px-6 sm:py-5">
        <h2 id={headingId} className="text-base font-semibold tracking-tight">
          {title}
        </h2>
        <p className="mt-1 text-muted-foreground">{description}</p>
      </header>
      {body ? <div className="border-t px-5 py-4 sm:px-6 sm:py-5">{body}</div> : null}
    </section>
  );
}
