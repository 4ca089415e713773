import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** A gap wider than this (PDF units) between two pieces of text on a line separates columns. */
const COLUMN_GAP = 6;

/**
 * The text of a PDF laid out line by line as it is printed: the pieces on one baseline, left to right,
 * columns apart by two spaces or more, words by one. What a reader sees, read without a system tool.
 */
export async function pdfLayoutText(bytes: Uint8Array): Promise<string> {
  // pdf.js takes the bytes it reads: a copy keeps the caller's.
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise;
  const out: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    const rows = new Map<number, { x: number; end: number; text: string }[]>();
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const [, , , , x = 0, y = 0] = item.transform as number[];
      const key = Math.round(y);
      const row = rows.get(key) ?? [];
      row.push({ x, end: x + item.width, text: item.str });
      rows.set(key, row);
    }
    // Top of the page first (PDF y grows upwards).
    for (const [, row] of [...rows].sort(([a], [b]) => b - a)) {
      row.sort((a, b) => a.x - b.x);
      let line = '';
      let end: number | null = null;
      for (const piece of row) {
        if (end !== null) {
          const gap = piece.x - end;
          line += gap > COLUMN_GAP ? '    ' : gap > 0.5 && !line.endsWith(' ') ? ' ' : '';
        }
        line += piece.text;
        end = piece.end;
      }
      out.push(line);
    }
  }
  await document.destroy();
  return out.join('\n');
}
