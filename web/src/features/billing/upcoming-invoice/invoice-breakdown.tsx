import { useId, useState, type ReactNode } from 'react';
import {
  creditCover,
  formatCents,
  formatUsage,
  groupInvoiceLines,
  lineQuantities,
  projectShare,
  type InvoiceGroupKind,
  type InvoiceLineGroup,
  type UpcomingInvoice,
  type UpcomingInvoiceLine,
} from '@meterline/domain';
import { ChevronRight } from 'lucide-react';
import { Link } from '../../../lib/router';
import { cn } from '../../../lib/cn';
import { ProjectionDetails, ProjectionToggle } from './projection-details';

const GROUP_LABELS: Record<Exclude<InvoiceGroupKind, 'plan' | 'line'>, string> = {
  compute: 'Compute',
  replica_compute: 'Read replica compute',
  branching: 'Branching compute',
};

/** Indentation of the first cell by depth: line, line in a group, project of a grouped line. */
const INDENT = ['pl-0', 'pl-6', 'pl-11'] as const;
const CELL = 'px-3 py-2.5 align-top';
const WIDE_ONLY = 'max-sm:hidden text-muted-foreground';
const NUMERIC = 'text-right tabular-nums whitespace-nowrap';

function lineUsage(line: Pick<UpcomingInvoiceLine, 'usage_metric'>, usage: number | null) {
  if (line.usage_metric === null || usage === null) return null;
  return formatUsage(line.usage_metric, usage);
}

/**
 * The quantity cell of a line: what it bills and, under it, the usage and the quota it was billed from,
 * all in the unit of its price, so that billed × unit price is the amount to the cent.
 */
function QuantityCell({ line }: { line: UpcomingInvoiceLine }) {
  const quantities = lineQuantities(line);
  if (!quantities) return <>{lineUsage(line, line.usage_original)}</>;
  const { used, included, billed } = quantities;
  return (
    <>
      <span className="text-foreground">{used === null ? billed : `${billed} billed`}</span>
      {used !== null ? (
        <span className="block text-xs">
          {included === null ? `${used} used` : `${used} used − ${included} included`}
        </span>
      ) : null}
    </>
  );
}

/** Usage and unit price under the name on narrow screens, where their columns are hidden. */
function NarrowDetails({ parts }: { parts: (string | null)[] }) {
  const text = parts.filter(Boolean).join(' · ');
  return text ? (
    <span aria-hidden className="mt-0.5 block text-xs text-muted-foreground sm:hidden">
      {text}
    </span>
  ) : null;
}

function Toggle({
  label,
  expanded,
  controls,
  onToggle,
  strong,
}: {
  label: string;
  expanded: boolean;
  controls: string;
  onToggle: () => void;
  strong: boolean;
}) {
  return (
    <button
      type="button"
      aria-expanded={expanded}
      aria-controls={controls}
      onClick={onToggle}
      className={cn(
        '-ml-1 inline-flex items-start gap-1 rounded-md px-1 text-left hover:text-primary-soft-foreground',
        strong && 'font-medium',
      )}
    >
      <ChevronRight
        aria-hidden
        className={cn('mt-0.5 size-4 shrink-0 transition-transform', expanded && 'rotate-90')}
      />
      {label}
    </button>
  );
}

/** A name without a toggle, aligned with the names that have one. */
function Label({ children, strong }: { children: ReactNode; strong: boolean }) {
  return <span className={cn('inline-block pl-5', strong && 'font-medium')}>{children}</span>;
}

function useExpanded() {
  const [expanded, setExpanded] = useState(false);
  return { expanded, toggle: () => setExpanded((value) => !value) };
}

/** One invoice line, and its projects under it once expanded (when it has a breakdown). */
function LineRows({
  line,
  depth,
  rowId,
  hidden = false,
}: {
  line: UpcomingInvoiceLine;
  depth: 0 | 1;
  rowId?: string;
  hidden?: boolean;
}) {
  const { expanded, toggle } = useExpanded();
  const id = useId();
  const projectIds = line.breakdown.map((_, index) => `${id}-${index}`);
  const usage = lineUsage(line, line.usage_original);
  const quantities = lineQuantities(line);
  const strong = depth === 0;
  return (
    <>
      <tr id={rowId} hidden={hidden}>
        <td className={cn(CELL, INDENT[depth], 'pr-3')}>
          {line.breakdown.length > 0 ? (
            <Toggle
              label={line.description}
              expanded={expanded}
              controls={projectIds.join(' ')}
              onToggle={toggle}
              strong={strong}
            />
          ) : (
            <Label strong={strong}>{line.description}</Label>
          )}
          <div className="pl-5">
            <NarrowDetails
              parts={quantities ? [quantities.summary] : [usage, line.unit_price_desc]}
            />
          </div>
        </td>
        <td className={cn(CELL, WIDE_ONLY)}>
          <QuantityCell line={line} />
        </td>
        <td className={cn(CELL, WIDE_ONLY)}>{line.unit_price_desc}</td>
        <td className={cn(CELL, NUMERIC, 'pr-0')}>
          {line.amount_before_discount !== line.amount ? (
            <s className="mr-2 text-muted-foreground">{formatCents(line.amount_before_discount)}</s>
          ) : null}
          {formatCents(line.amount)}
        </td>
      </tr>
      {line.breakdown.map((entry, index) => {
        // The project's usage, and the part of the line's amount it makes (lines split by usage).
        const { usage: projectUsage, share } = quantities
          ? projectShare(line, entry)
          : { usage: lineUsage(line, entry.usage), share: null };
        return (
          <tr
            key={entry.project_ref}
            id={projectIds[index]}
            hidden={hidden || !expanded}
            className="text-muted-foreground"
          >
            <td className={cn(CELL, INDENT[depth + 1], 'py-1.5 pr-3')}>
              <Link
                to={`/project/${encodeURIComponent(entry.project_ref)}`}
                className="inline-block pl-5 underline-offset-2 hover:text-foreground hover:underline"
              >
                {entry.project_name}
              </Link>
              <div className="pl-5">
                <NarrowDetails parts={[projectUsage, share]} />
              </div>
            </td>
            <td className={cn(CELL, WIDE_ONLY, 'py-1.5')}>{projectUsage}</td>
            <td className={cn(CELL, WIDE_ONLY, 'py-1.5')}>{share}</td>
            <td className={cn(CELL, NUMERIC, 'py-1.5 pr-0')}>{formatCents(entry.amount)}</td>
          </tr>
        );
      })}
    </>
  );
}

/** Compute, replica compute and branching: one row with the group's total, its lines inside. */
function GroupRows({ group, label }: { group: InvoiceLineGroup; label: string }) {
  const { expanded, toggle } = useExpanded();
  const id = useId();
  const lineIds = group.lines.map((_, index) => `${id}-${index}`);
  const projects = new Set(group.lines.flatMap((line) => line.breakdown.map((b) => b.project_ref)));
  const summary =
    projects.size > 0 ? `${projects.size} project${projects.size === 1 ? '' : 's'}` : null;
  return (
    <tbody className="border-t">
      <tr>
        <td className={cn(CELL, 'pr-3 pl-0')}>
          <Toggle
            label={label}
            expanded={expanded}
            controls={lineIds.join(' ')}
            onToggle={toggle}
            strong
          />
          <div className="pl-5">
            <NarrowDetails parts={[summary]} />
          </div>
        </td>
        <td className={cn(CELL, WIDE_ONLY)}>{summary}</td>
        <td className={cn(CELL, WIDE_ONLY)} />
        <td className={cn(CELL, NUMERIC, 'pr-0 font-medium')}>{formatCents(group.total)}</td>
      </tr>
      {group.lines.map((line, index) => (
        <LineRows key={index} line={line} depth={1} rowId={lineIds[index]} hidden={!expanded} />
      ))}
    </tbody>
  );
}

function TotalRow({
  label,
  hint,
  children,
}: {
  label: string;
  hint: ReactNode;
  children: ReactNode;
}) {
  // No colSpan: the usage and unit price columns are hidden on narrow screens, and a spanning cell
  // would keep them in the table's grid there.
  return (
    <tr>
      <th scope="row" className="py-2.5 pr-3 text-left align-top font-medium">
        {label}
        <span className="block text-xs font-normal text-muted-foreground">{hint}</span>
      </th>
      <td className={cn(CELL, WIDE_ONLY)} />
      <td className={cn(CELL, WIDE_ONLY)} />
      <td className={cn(NUMERIC, 'py-2.5 align-top text-base font-semibold')}>{children}</td>
    </tr>
  );
}

/**
 * The upcoming invoice as the spec groups it, with the total so far and the projection; with credit
 * held (a positive balance), what it will cover of the projection and what is left
 * for the card.
 */
export function InvoiceBreakdown({
  invoice,
  credit,
}: {
  invoice: UpcomingInvoice;
  credit?: { balance: number; billedViaPartner: boolean };
}) {
  const groups = groupInvoiceLines(invoice.lines);
  const cover =
    credit && credit.balance > 0 && !credit.billedViaPartner
      ? creditCover(invoice.amount_projected, credit.balance, credit.billedViaPartner)
      : null;
  const projection = useExpanded();
  const projectionId = useId();
  return (
    <div className="space-y-4">
      <table className="w-full text-sm">
        <caption className="sr-only">Upcoming invoice lines</caption>
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="pr-3 pb-2 text-left font-medium">
              Item
            </th>
            <th scope="col" className="px-3 pb-2 text-left font-medium max-sm:hidden">
              Quantity
            </th>
            <th scope="col" className="px-3 pb-2 text-left font-medium max-sm:hidden">
              Unit price
            </th>
            <th scope="col" className="pb-2 pl-3 text-right font-medium">
              Amount
            </th>
          </tr>
        </thead>
        {groups.map((group, index) =>
          group.kind === 'plan' || group.kind === 'line' ? (
            <tbody key={index} className="border-t">
              {group.lines.map((line, lineIndex) => (
                <LineRows key={lineIndex} line={line} depth={0} />
              ))}
            </tbody>
          ) : (
            <GroupRows key={index} group={group} label={GROUP_LABELS[group.kind]} />
          ),
        )}
        <tfoot className="border-t-2 border-foreground/15">
          <TotalRow label="Total so far" hint="Charged in this billing cycle up to now">
            {formatCents(invoice.amount_total)}
          </TotalRow>
          <TotalRow
            label="Projected total"
            hint={
              <>
                Estimate for the whole cycle at the current usage
                <ProjectionToggle
                  expanded={projection.expanded}
                  controls={projectionId}
                  onToggle={projection.toggle}
                />
              </>
            }
          >
            {formatCents(invoice.amount_projected)}
          </TotalRow>
          {cover ? (
            <>
              <TotalRow
                label="Credit applied"
                hint={`From the ${formatCents(credit?.balance ?? 0)} of credit your organization holds`}
              >
                {formatCents(-cover.creditApplied)}
              </TotalRow>
              <TotalRow
                label="Expected charge"
                hint="What the card is charged when the cycle closes, at the current usage"
              >
                {formatCents(cover.charge)}
              </TotalRow>
            </>
          ) : null}
        </tfoot>
      </table>
      {projection.expanded ? <ProjectionDetails invoice={invoice} id={projectionId} /> : null}
    </div>
  );
}
