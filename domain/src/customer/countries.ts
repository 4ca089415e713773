// The names alone, from the package's English list: its library code (alpha-3 and numeric codes, a
// diacritics table) is not needed to list the countries, and the web app's first load carries this file.
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

export interface Country {
  /** ISO 3166-1 alpha-2 code, upper case. */
  readonly code: string;
  /** The English name. */
  readonly name: string;
}

/** Every ISO 3166-1 country, sorted by English name: the address form's country choices. */
export const COUNTRIES: readonly Country[] = Object.entries(en.countries)
  // Where the list gives several names, the first is the official one (the package's `getNames`).
  .flatMap(([code, names]) => {
    const name = typeof names === 'string' ? names : names[0];
    return name ? [{ code, name }] : [];
  })
  .sort((a, b) => a.name.localeCompare(b.name, 'en'));

const NAMES: ReadonlyMap<string, string> = new Map(
  COUNTRIES.map((country) => [country.code, country.name]),
);

export function isKnownCountry(code: string): boolean {
  return NAMES.has(code);
}

export function countryName(code: string): string | undefined {
  return NAMES.get(code.trim().toUpperCase());
}
