import type { DurationInput, DurationObject } from './types';

const GO_UNITS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const GO_PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
const ISO =
  /^(-)?P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

const DAY = 86_400_000;

/**
 * Go's time.ParseDuration, in milliseconds; undefined when the text is not one.
 *
 * @public
 */
export function parseGoDuration(text: string): number | undefined {
  let s = text.trim();
  let sign = 1;
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s[0] === '-') sign = -1;
    s = s.slice(1);
  }
  if (s === '0') return 0;
  if (!s) return undefined;
  let total = 0;
  GO_PART.lastIndex = 0;
  while (GO_PART.lastIndex < s.length) {
    const at = GO_PART.lastIndex;
    const m = GO_PART.exec(s);
    if (!m || m.index !== at) return undefined;
    total += Number(m[1]) * GO_UNITS[m[2]];
  }
  return sign * total;
}

/**
 * A duration input in milliseconds; throws a plain Error saying what is accepted.
 *
 * @public
 */
export function durationMs(input: DurationInput): number {
  if (typeof input === 'number') {
    if (!Number.isFinite(input))
      throw new Error('must be a finite number of seconds');
    return input * 1000;
  }
  if (typeof input === 'string') {
    const go = parseGoDuration(input);
    if (go !== undefined) return go;
    const iso = ISO.exec(input.trim());
    if (iso && input.trim() !== 'P' && !input.trim().endsWith('T')) {
      const n = (i: number) => Number(iso[i] ?? 0);
      const ms =
        n(2) * 365 * DAY +
        n(3) * 30 * DAY +
        n(4) * 7 * DAY +
        n(5) * DAY +
        n(6) * 3_600_000 +
        n(7) * 60_000 +
        n(8) * 1000;
      return iso[1] ? -ms : ms;
    }
    throw new Error(
      `"${input}" is not a duration: use a Go duration like 60s, 1h30m or 0, or ISO 8601 like PT1M`,
    );
  }
  if (input && typeof input === 'object') {
    const units: Record<keyof DurationObject, number> = {
      years: 365 * DAY,
      months: 30 * DAY,
      weeks: 7 * DAY,
      days: DAY,
      hours: 3_600_000,
      minutes: 60_000,
      seconds: 1000,
      milliseconds: 1,
    };
    let total = 0;
    for (const [key, value] of Object.entries(input)) {
      const unit = units[key as keyof DurationObject];
      if (unit === undefined || typeof value !== 'number') {
        throw new Error(`unknown duration field "${key}"`);
      }
      total += value * unit;
    }
    return total;
  }
  throw new Error('must be a duration');
}
