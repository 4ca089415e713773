import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { neutralizeFormula } from '../surveys/export-surveys.ts';

/**
 * A CSV download built from rows read batch by batch: RFC 4180 (csv-stringify, CRLF records, quotes where
 * needed), UTF-8 with a byte-order mark so spreadsheets read accents, a header row, and every text cell
 * that a spreadsheet would run as a formula neutralized. Memory stays that of one batch.
 */
export function csvStream(
  columns: readonly string[],
  rows: AsyncIterable<readonly (string | number | null)[]>,
): Readable {
  const csv = stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    bom: true,
  });
  const cells = Readable.from(
    (async function* () {
      for await (const row of rows) {
        yield row.map((cell) => (typeof cell === 'string' ? neutralizeFormula(cell) : cell));
      }
    })(),
  );
  cells.on('error', (error) => csv.destroy(error));
  return cells.pipe(csv);
}

/** "acme-pro-invoices-2026-11-24.csv": letters, digits, dots and dashes only. */
export function csvFileName(...parts: string[]): string {
  const name = parts
    .join('-')
    .replace(/[^A-Za-z0-9.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  return `${name || 'export'}.csv`;
}

export function contentDisposition(fileName: string): string {
  return `attachment; filename="${fileName}"`;
}

/** Cents as a plain decimal amount in dollars ("-50.00"): a number a spreadsheet sums. */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
