const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

const FORMAT = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "just now", "5 minutes ago", "yesterday", "3 months ago": how long before `now` (unix seconds). */
export function relativeTime(at: number, now: number): string {
  const elapsed = now - at;
  if (Math.abs(elapsed) < 60) return 'just now';
  for (const [unit, seconds] of UNITS) {
    if (Math.abs(elapsed) >= seconds) return FORMAT.format(-Math.trunc(elapsed / seconds), unit);
  }
  return 'just now';
}
