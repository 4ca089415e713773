import { useId, useState } from 'react';
import {
  cardBrandName,
  describeAuditEntry,
  formatCents,
  formatInvoiceDateHour,
  isRemovedCard,
  type AuditLogEntry,
} from '@meterline/domain';
import { ChevronRight } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/cn';
import { relativeTime } from './relative-time';

const ACTOR_LABELS: Record<AuditLogEntry['actor']['type'], string | null> = {
  user: null,
  token: 'Access token',
  operator: 'Operator',
  billing_job: 'Billing job',
  pay_link: 'Payment link',
  provider: 'Card provider',
};

/** "balance_cents" -> "Balance", "grace_period_end" -> "Grace period end". */
const fieldName = (key: string) => {
  const words = key.replace(/_cents$/, '').replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * A recorded value as text, read by its field's name: cents as money, unix seconds (`…_at`, `…_end`) as
 * a UTC time, a card by its brand and last digits, yes and no, anything else compactly.
 */
function valueText(value: unknown, key = '', cardsOnFile?: ReadonlySet<string>): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number' && Number.isSafeInteger(value)) {
    if (key.endsWith('_cents')) return formatCents(value);
    if (/(_at|_end)$/.test(key)) return formatInvoiceDateHour(value);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return value || '(empty)';
  if (Array.isArray(value)) return value.map((item) => valueText(item)).join(', ') || '—';
  if (typeof value !== 'object') return String(value);
  const fields = value as Record<string, unknown>;
  if (typeof fields.brand === 'string' && typeof fields.last4 === 'string') {
    const removed = isRemovedCard(fields, { cardsOnFile }) ? ' (removed)' : '';
    return `${cardBrandName(fields.brand)} •••• ${fields.last4}${removed}`;
  }
  return Object.entries(fields)
    .map(([name, item]) => `${fieldName(name)}: ${valueText(item, name, cardsOnFile)}`)
    .join(', ');
}

function Changes({
  entry,
  cardsOnFile,
}: {
  entry: AuditLogEntry;
  cardsOnFile?: ReadonlySet<string>;
}) {
  const keys = [
    ...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})]),
  ];
  if (keys.length === 0) return <p className="text-muted-foreground">No fields were recorded.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <thead className="text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="py-1 pr-4 font-medium">
              Field
            </th>
            <th scope="col" className="py-1 pr-4 font-medium">
              Before
            </th>
            <th scope="col" className="py-1 font-medium">
              After
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key} className="border-t align-top">
              <th scope="row" className="py-1.5 pr-4 font-medium whitespace-nowrap">
                {fieldName(key)}
              </th>
              <td className="py-1.5 pr-4 break-words text-muted-foreground">
                {entry.before ? valueText(entry.before[key], key, cardsOnFile) : '—'}
              </td>
              <td className="py-1.5 break-words">
                {entry.after ? valueText(entry.after[key], key, cardsOnFile) : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One entry: its sentence and time; the before and after, and where it came from, on expand. */
export function AuditEntry({
  entry,
  now,
  cardsOnFile,
}: {
  entry: AuditLogEntry;
  now: number;
  /** The ids of the cards on file today, when known. */
  cardsOnFile?: ReadonlySet<string>;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const actorLabel = ACTOR_LABELS[entry.actor.type];
  const absolute = formatInvoiceDateHour(entry.created_at);
  return (
    <li className="px-4 py-3 sm:px-5">
      <div className="flex items-start gap-3">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((value) => !value)}
          className="group -mx-1 flex min-w-0 flex-1 items-start gap-2 rounded-md px-1 py-0.5 text-left focus-visible:outline-2 focus-visible:outline-ring/40"
        >
          <ChevronRight
            aria-hidden
            className={cn(
              'mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform',
              open && 'rotate-90',
            )}
          />
          <span className="min-w-0 space-y-0.5">
            <span className="block font-medium break-words group-hover:underline">
              {describeAuditEntry(entry, { cardsOnFile })}
            </span>
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
              <time dateTime={new Date(entry.created_at * 1000).toISOString()} title={absolute}>
                {relativeTime(entry.created_at, now)}
              </time>
              <span aria-hidden>·</span>
              <span>{absolute}</span>
              {actorLabel ? <Badge>{actorLabel}</Badge> : null}
            </span>
          </span>
        </button>
      </div>
      <div
        id={panelId}
        hidden={!open}
        className="mt-3 ml-6 space-y-3 rounded-md border bg-muted/40 p-3"
      >
        <Changes entry={entry} cardsOnFile={cardsOnFile} />
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-muted-foreground">Action</dt>
          <dd className="font-mono text-xs leading-5 break-all">{entry.action}</dd>
          <dt className="text-muted-foreground">Target</dt>
          <dd className="font-mono text-xs leading-5 break-all">
            {entry.target.type}
            {entry.target.id ? ` ${entry.target.id}` : ''}
          </dd>
          <dt className="text-muted-foreground">From</dt>
          <dd className="break-all">{entry.ip ?? 'No address (made by the system)'}</dd>
          {entry.user_agent ? (
            <>
              <dt className="text-muted-foreground">Browser or client</dt>
              <dd className="break-all">{entry.user_agent}</dd>
            </>
          ) : null}
        </dl>
      </div>
    </li>
  );
}
