import type { Cents } from '../money/cents.ts';
import { allocate } from '../money/allocate.ts';
import * as Q from '../money/rational.ts';
import type { InvoiceLineBreakdown } from './schemas.ts';

export interface ProjectShare {
  readonly projectRef: string;
  /** The project's exact, unrounded part of the line, used as its allocation weight. */
  readonly weight: Q.Rational;
  readonly usage: Q.Rational;
  /** Null for lines not measured in hours. */
  readonly hours: Q.Rational | null;
}

/** Display precision of usage and hours beside an amount; amounts never pass through it. */
export const QUANTITY_DECIMALS = 2;

/**
 * One breakdown row per project (in the organization's project order, unknown refs after), with
 * the line's rounded amount split by largest remainder so the rows add up to the line exactly.
 */
export function breakdownOf(
  lineAmount: Cents,
  shares: readonly ProjectShare[],
  projects: readonly { readonly ref: string; readonly name: string }[],
): InvoiceLineBreakdown[] {
  const merged = new Map<
    string,
    { weight: Q.Rational; usage: Q.Rational; hours: Q.Rational | null }
  >();
  const shared = new Set(shares.map((share) => share.projectRef));
  for (const { ref } of projects) {
    if (shared.has(ref)) merged.set(ref, { weight: Q.ZERO, usage: Q.ZERO, hours: null });
  }
  for (const share of shares) {
    const current = merged.get(share.projectRef) ?? { weight: Q.ZERO, usage: Q.ZERO, hours: null };
    merged.set(share.projectRef, {
      weight: Q.add(current.weight, share.weight),
      usage: Q.add(current.usage, share.usage),
      hours: share.hours === null ? current.hours : Q.add(current.hours ?? Q.ZERO, share.hours),
    });
  }
  const rows = [...merged];
  const amounts = allocate(
    lineAmount,
    rows.map(([, row]) => row.weight),
  );
  const names = new Map(projects.map((p) => [p.ref, p.name]));
  return rows.map(([ref, row], i) => ({
    project_ref: ref,
    project_name: names.get(ref) ?? ref,
    usage: Q.toNumber(row.usage, QUANTITY_DECIMALS),
    hours: row.hours === null ? null : Q.toNumber(row.hours, QUANTITY_DECIMALS),
    amount: amounts[i] ?? 0,
  }));
}
