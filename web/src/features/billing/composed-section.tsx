import type { BillingSection as Section } from '@meterline/domain';
import { BillingSection, type BillingSectionProps } from './billing-section';

/**
 * A section whose content another feature provides: app/ composes it in as `extra` (a feature does not
 * import another), and the billing page gives it its frame, anchor and permission notice.
 */
export function ComposedSection(section: Section) {
  function Composed({ role, extra }: BillingSectionProps) {
    return (
      <BillingSection section={section} role={role}>
        {extra}
      </BillingSection>
    );
  }
  Composed.displayName = `ComposedSection(${section})`;
  return Composed;
}
