import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { COUNTRIES, countryName, isKnownCountry } from './countries.ts';

describe('COUNTRIES', () => {
  it('lists every ISO 3166-1 country once, by code and English name', () => {
    expect(COUNTRIES.length).toBeGreaterThanOrEqual(249);
    expect(new Set(COUNTRIES.map((c) => c.code)).size).toBe(COUNTRIES.length);
    for (const country of COUNTRIES) expect(country.code).toMatch(/^[A-Z]{2}$/);
    expect(COUNTRIES).toContainEqual({ code: 'IE', name: 'Ireland' });
    expect(COUNTRIES).toContainEqual({ code: 'DE', name: 'Germany' });
  });

  it("names each country as the package's own getNames does", () => {
    countries.registerLocale(en);
    const names = Object.entries(countries.getNames('en'));
    expect(COUNTRIES.length).toBe(names.length);
    for (const [code, name] of names) expect(countryName(code)).toBe(name);
  });

  it('is sorted by name', () => {
    const names = COUNTRIES.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(names[0]).toBe('Afghanistan');
  });
});

describe('isKnownCountry and countryName', () => {
  it('know ISO codes and nothing else', () => {
    expect(isKnownCountry('IE')).toBe(true);
    expect(isKnownCountry('ZZ')).toBe(false);
    expect(isKnownCountry('')).toBe(false);
    expect(isKnownCountry('IRL')).toBe(false);
  });

  it('name a country by its code, in any case', () => {
    expect(countryName('ie')).toBe('Ireland');
    expect(countryName('ZZ')).toBeUndefined();
  });
});
