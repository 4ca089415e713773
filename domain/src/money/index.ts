export * from './cents.ts';
export { rational, rationalFromNumber, type Rational } from './rational.ts';
/** Arithmetic on exact fractions, as a namespace: its short names (add, sum, max) would clash. */
export * as Rationals from './rational.ts';
export * from './round.ts';
export * from './allocate.ts';
export * from './format-cents.ts';
