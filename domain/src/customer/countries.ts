// The package is CommonJS: its default export works both in Node and in the browser bundle.
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };

// In a browser bundle the package registers no language by itself; English is the only one the product shows.
countries.registerLocale(en);

export interface Country {
  /** ISO 3166-1 alpha-2 code, upper case. */
  readonly code: string;
  /** The English name. */
  readonly name: string;
}

/** Every ISO 3166-1 country, sorted by English name: the address form's country choices. */
export const COUNTRIES: readonly Country[] = Object.entries(countries.getNames('en'))
  .map(([code, name]) => ({ code, name }))
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
