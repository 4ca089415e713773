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

const COMPUTE_GROUPS = ['compute', 'replica_compute', 'branching'] as const;
const ORDER: readonly InvoiceGroupKind[] = ['plan', ...COMPUTE_GROUPS];

/** The compute credits: a compute line that meters nothing, because it covers compute of every kind. */
function isComputeCredit(line: UpcomingInvoiceLine): boolean {
  return invoiceLineGroupKind(line) === 'compute' && line.usage_metric === null;
}

/**
 * The upcoming-invoice breakdown as displayed: the plan row, then compute, replica compute and
 * branching (each one group with its total), then every other line on its own row, in the order
 * given. The compute credits go with the first of those groups that bills compute: on their own
 * they would make a "Compute" group of nothing but a negative amount, beside the replica or branch
 * compute they actually cover. Empty groups are left out.
 */
export function groupInvoiceLines(lines: readonly UpcomingInvoiceLine[]): InvoiceLineGroup[] {
  const kindOf = (line: UpcomingInvoiceLine) =>
    isComputeCredit(line) ? 'credits' : invoiceLineGroupKind(line);
  const creditsGroup =
    COMPUTE_GROUPS.find((kind) => lines.some((line) => kindOf(line) === kind)) ?? 'compute';
  const groupOf = (line: UpcomingInvoiceLine) => {
    const kind = kindOf(line);
    return kind === 'credits' ? creditsGroup : kind;
  };
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
      lines.filter((line) => groupOf(line) === kind),
    ),
  );
  const singles = lines
    .filter((line) => groupOf(line) === 'line')
    .map((line) => group('line', [line]));
  return [...grouped.filter((g) => g.lines.length > 0), ...singles];
}
