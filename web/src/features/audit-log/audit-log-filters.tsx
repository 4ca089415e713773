import { useState, type FormEvent } from 'react';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_ACTIONS,
  auditLogExportQuerySchema,
  isAuditAction,
} from '@meterline/domain';
import { Button } from '../../components/ui/button';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { NativeSelect } from '../../components/ui/native-select';
import type { AuditLogFilters } from '../../data/audit-log-query';

const EMPTY = { action: '', actor: '', since: '', until: '' };

/** The log's filters: applied together when the form is sent (Enter in any field, or Filter). */
export function AuditLogFiltersForm({
  value,
  onChange,
}: {
  value: AuditLogFilters;
  onChange: (filters: AuditLogFilters) => void;
}) {
  const [draft, setDraft] = useState({ ...EMPTY, ...value });
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const set = (field: keyof typeof EMPTY) => (next: string) =>
    setDraft((current) => ({ ...current, [field]: next }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const filters: AuditLogFilters = {
      ...(isAuditAction(draft.action) ? { action: draft.action } : {}),
      ...(draft.actor.trim() ? { actor: draft.actor.trim() } : {}),
      ...(draft.since ? { since: draft.since } : {}),
      ...(draft.until ? { until: draft.until } : {}),
    };
    // The server's own rules (the actor's characters, the date range).
    const checked = auditLogExportQuerySchema.safeParse(filters);
    if (!checked.success) {
      const issue = checked.error.issues[0];
      setError({ field: String(issue?.path[0] ?? ''), message: issue?.message ?? 'Not valid' });
      return;
    }
    setError(null);
    onChange(filters);
  }

  const errorOf = (field: string) => (error?.field === field ? error.message : undefined);
  return (
    <form
      onSubmit={submit}
      aria-label="Filter the audit log"
      className="grid gap-3 rounded-lg border bg-card p-4 shadow-card sm:grid-cols-2 lg:grid-cols-[1.3fr_1.3fr_1fr_1fr_auto] lg:items-start"
    >
      <Field label="Action">
        <NativeSelect value={draft.action} onChange={(event) => set('action')(event.target.value)}>
          <option value="">All actions</option>
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {AUDIT_ACTION_LABELS[action]}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <Field label="Actor" error={errorOf('actor')}>
        <Input
          value={draft.actor}
          maxLength={254}
          placeholder="Email or id"
          onChange={(event) => set('actor')(event.target.value)}
        />
      </Field>
      <Field label="From" error={errorOf('since')}>
        <Input
          type="date"
          value={draft.since}
          min="2000-01-01"
          max="2100-12-31"
          onChange={(event) => set('since')(event.target.value)}
        />
      </Field>
      <Field label="To" error={errorOf('until')}>
        <Input
          type="date"
          value={draft.until}
          min="2000-01-01"
          max="2100-12-31"
          onChange={(event) => set('until')(event.target.value)}
        />
      </Field>
      <div className="flex gap-2 sm:col-span-2 lg:col-span-1 lg:pt-6">
        <Button type="submit" variant="primary">
          Filter
        </Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            setDraft(EMPTY);
            setError(null);
            onChange({});
          }}
        >
          Clear
        </Button>
      </div>
    </form>
  );
}
