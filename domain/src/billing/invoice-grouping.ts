import type { Cents } from '../money/cents.ts';
import { sumCents } from '../money/cents.ts';
import type { UpcomingInvoiceLine } from './schemas.ts';

export type InvoiceGroupKind = 'plan' | 'compute' | 'replica_compute' | 'branching' | 'line';

export interface InvoiceLineGroup {
  readonly kind: InvoiceGroupKind;
  readonly lines: readonly UpcomingInvoiceLine[];
  readonly total: Cents;
}

type GroupedLine = Pick<UpcomingInvoiceLine, 'description' | 'metadata'>;

/** Which display group a line belongs to, by the spec's text rule. */
export function invoiceLineGroupKind(line: GroupedLine): InvoiceGroupKind {
  const text = line.description.toLowerCase();
  if (text.includes('compute')) {
    if (line.metadata.is_read_replica) return 'replica_compute';
    if (line.metadata.is_branch) return 'branching';
    return 'compute';
  }
  return text.includes('plan') ? 'plan' : 'line';
}

const ORDER: readonly InvoiceGroupKind[] = ['plan', 'compute', 'replica_compute', 'branching'];

/**
 * The upcoming-invoice breakdown as displayed: the plan row, then compute, replica compute and
 * branching (each one group with its total; the compute credits line falls in compute), then every
 * other line on its own row, in the order given. Empty groups are left out.
 */
export function groupInvoiceLines(lines: readonly UpcomingInvoiceLine[]): InvoiceLineGroup[] {
  const group = (
    kind: InvoiceGroupKind,
    members: readonly UpcomingInvoiceLine[],
  ): InvoiceLineGroup => ({
    kind,
    lines: members,
    total: sumCents(members.map((line) => line.amount)),
  });
  const grouped = ORDER.map((kind) =>
    group(
      kind,
      lines.filter((line) => invoiceLineGroupKind(line) === kind),
    ),
  );
  const singles = lines
    .filter((line) => invoiceLineGroupKind(line) === 'line')
    .map((line) => group('line', [line]));
  return [...grouped.filter((g) => g.lines.length > 0), ...singles];
}
