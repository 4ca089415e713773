import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as Fontkit from 'fontkit';

/**
 * The fonts an invoice prints with, embedded (pdfkit keeps only the glyphs used): Noto Sans for Latin
 * (Polish, Turkish, Vietnamese), Greek and Cyrillic; Noto Sans CJK SC for Chinese characters and kana; Noto
 * Sans CJK KR for Hangul. All three are under the SIL Open Font License 1.1, shipped in npm packages, never
 * fetched at run time. A file is read and parsed once per process, on the first invoice that needs one of its
 * glyphs: an invoice in Latin script alone never reads the CJK files (8 and 4.5 MB a face).
 */

export type Weight = 'regular' | 'bold';

interface Family {
  readonly name: string;
  readonly pkg: string;
  readonly files: Readonly<Record<Weight, string>>;
}

// In the order a character is looked up: the first that has its glyph prints it.
const FAMILIES: readonly Family[] = [
  {
    name: 'NotoSans',
    pkg: '@embedpdf/fonts-latin',
    files: { regular: 'NotoSans-Regular.ttf', bold: 'NotoSans-Bold.ttf' },
  },
  {
    name: 'NotoSansSC',
    pkg: '@embedpdf/fonts-sc',
    files: { regular: 'NotoSansHans-Regular.otf', bold: 'NotoSansHans-Bold.otf' },
  },
  {
    name: 'NotoSansKR',
    pkg: '@embedpdf/fonts-kr',
    files: { regular: 'NotoSansKR-Regular.otf', bold: 'NotoSansKR-Bold.otf' },
  },
];

const require = createRequire(import.meta.url);

/** The part of fontkit used here, as pdfkit loads it (its CommonJS build: the same module, not a copy). */
interface FontkitModule {
  create(buffer: Buffer): Fontkit.Font | Fontkit.FontCollection;
  registerFormat(format: typeof SharedFace): void;
}
const fontkit = require('fontkit') as FontkitModule;

interface LoadedFace {
  /** What pdfkit is given for the face: a token that opens the parsed font below (see SharedFace). */
  readonly token: Buffer;
  readonly font: Fontkit.Font;
}

const faces = new Map<string, LoadedFace>();
const TOKEN = 'meterline-font:';

/**
 * pdfkit parses a font it is given for every document, and the first text laid out in a fresh parse reads
 * the font's layout tables: 100 to 300 ms a face, each invoice. Registered as a font format, this hands
 * pdfkit the font parsed once instead: given a face's token (no real font starts so), fontkit builds the
 * font with `new SharedFace(stream)`, and the object a constructor returns is what `new` gives. The font is
 * only read after parsing (each document keeps its own subset), so documents share it safely.
 */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- fontkit takes a font format as a class: `probe` on it, `new` for the font
class SharedFace {
  static probe(buffer: Uint8Array): boolean {
    return buffer.length < 64 && Buffer.from(buffer).toString('latin1').startsWith(TOKEN);
  }

  constructor(stream: { buffer: Uint8Array }) {
    const key = Buffer.from(stream.buffer).toString('latin1').slice(TOKEN.length);
    const loaded = faces.get(key);
    if (!loaded) throw new Error(`font ${key} is not loaded`);
    return loaded.font as object as SharedFace;
  }
}
fontkit.registerFormat(SharedFace);

/** The face's file and its parsed font, read on first use and kept for the life of the process. */
function face(family: Family, weight: Weight): LoadedFace {
  const key = `${family.name}-${weight}`;
  const known = faces.get(key);
  if (known) return known;
  // The packages export only their index: the fonts sit in fonts/ beside dist/.
  const file = join(dirname(require.resolve(family.pkg)), '..', 'fonts', family.files[weight]);
  const bytes = readFileSync(file);
  const font = fontkit.create(bytes);
  if (!('hasGlyphForCodePoint' in font)) throw new Error(`${file} is a font collection`);
  const loaded = { token: Buffer.from(`${TOKEN}${key}`, 'latin1'), font };
  faces.set(key, loaded);
  return loaded;
}

const covers = (index: number, codePoint: number): boolean => {
  const family = FAMILIES[index];
  return family !== undefined && face(family, 'regular').font.hasGlyphForCodePoint(codePoint);
};

/** The first family with the character's glyph; the first family (its missing glyph) when none has it. */
function familyFor(codePoint: number): number {
  for (let index = 0; index < FAMILIES.length; index++) {
    if (covers(index, codePoint)) return index;
  }
  return 0;
}

const LETTER = /\p{L}/u;
const MARK = /\p{M}/u;

/** A stretch of text one font prints. */
export interface Run {
  readonly text: string;
  readonly family: number;
}

/**
 * The text cut where the font must change: a letter goes to the first family that has it; a combining mark
 * stays with the letter before it; a space, a digit or punctuation stays in the run it is in when that font
 * has it, so that "Łódź Żółć Sp. z o.o. 東京" is two runs, not six.
 */
export function fontRuns(text: string): Run[] {
  const runs: { text: string; family: number }[] = [];
  for (const char of text) {
    const codePoint = char.codePointAt(0) ?? 0;
    const current = runs.at(-1);
    let family: number;
    if (current && MARK.test(char)) family = current.family;
    else if (current && !LETTER.test(char) && covers(current.family, codePoint)) {
      family = current.family;
    } else family = familyFor(codePoint);
    if (current && current.family === family) current.text += char;
    else runs.push({ text: char, family });
  }
  return runs;
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<string>>();

/** Makes the family's face the document's current font (registered in the document on first use). */
export function useFont(doc: PDFKit.PDFDocument, weight: Weight, family = 0): PDFKit.PDFDocument {
  const chosen = FAMILIES[family] ?? FAMILIES[0];
  if (!chosen) throw new Error('no font family');
  const name = `${chosen.name}-${weight}`;
  let names = registered.get(doc);
  if (!names) {
    names = new Set();
    registered.set(doc, names);
  }
  if (!names.has(name)) {
    doc.registerFont(name, face(chosen, weight).token);
    names.add(name);
  }
  return doc.font(name);
}

/**
 * Text that may mix scripts, as `doc.text` prints it: each run in a font that has its glyphs, continued on
 * the same lines, wrapped within `options.width`. The document's current font is the Latin face afterwards.
 */
export function printText(
  doc: PDFKit.PDFDocument,
  text: string,
  x: number | undefined,
  y: number | undefined,
  options: PDFKit.Mixins.TextOptions,
  weight: Weight = 'regular',
): PDFKit.PDFDocument {
  const runs = fontRuns(text);
  if (runs.length === 0) runs.push({ text: '', family: 0 });
  runs.forEach((run, index) => {
    useFont(doc, weight, run.family);
    const continued = index < runs.length - 1;
    if (index === 0) doc.text(run.text, x, y, { ...options, continued });
    else doc.text(run.text, { ...options, continued });
  });
  return useFont(doc, weight);
}

/**
 * The height `printText` takes for the text: exact for text in one font; for mixed scripts, from the runs'
 * widths, a line more than they fill (a wrap at a word may leave a line short).
 */
export function textHeight(
  doc: PDFKit.PDFDocument,
  text: string,
  width: number,
  weight: Weight = 'regular',
): number {
  const runs = fontRuns(text);
  if (runs.length <= 1) {
    useFont(doc, weight, runs[0]?.family ?? 0);
    const height = doc.heightOfString(text || ' ', { width });
    useFont(doc, weight);
    return height;
  }
  let total = 0;
  for (const run of runs) total += useFont(doc, weight, run.family).widthOfString(run.text);
  useFont(doc, weight);
  const lines = Math.ceil(total / width) + (total > width ? 1 : 0);
  return lines * doc.currentLineHeight(true);
}
