const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
  ['second', 1_000],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "5 minutes ago", from an RFC 3339 time; empty for a missing or unreadable time. */
export function relativeTime(
  iso: string | undefined,
  now = Date.now(),
): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const delta = time - now;
  // Within ten seconds, or ahead of this browser's clock (skew): just now.
  if (delta > -10_000) return 'just now';
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms || unit === 'second') {
      return format.format(Math.round(delta / ms), unit);
    }
  }
  return '';
}
