/** One tax ID kind of the catalogue. EU VAT kinds share the type eu_vat; the country tells them apart. */
export interface TaxIdKind {
  /** Unique display name, e.g. "IE VAT"; the form's select uses it because types repeat. */
  readonly name: string;
  readonly type: string;
  /** English country name as the catalogue spells it. */
  readonly country: string;
  /** The billing-address country that offers this kind. */
  readonly countryIso2: string;
  /** An example of the expected format, shown as the value's placeholder. */
  readonly placeholder: string;
  /** Put in front of a value that lacks it. */
  readonly vatPrefix?: string;
  /** The country whose tax authority issues it, when that is not countryIso2 (the Isle of Man uses GB VAT). */
  readonly taxCountryIso2?: string;
}
