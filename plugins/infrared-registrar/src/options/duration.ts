import { Duration } from 'luxon';
import type { DurationInput } from './types';

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

/**
 * Go's time.ParseDuration, in milliseconds; undefined when the text is not one. Kept by hand: Go durations
 * (`60s`, `1h30m`, `250ms`) are the registrar CLI's flag format, as upstream's pflag reads them, and no
 * well-kept npm package parses exactly Go's grammar (`ms`/`us`/`ns`, fractions, sign, bare `0`); luxon
 * reads ISO 8601 only.
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
    // ISO 8601 through luxon (a year 365 days, a month 30); luxon also takes a bare "P" or "PT" as zero.
    const text = input.trim();
    const iso = Duration.fromISO(text);
    if (iso.isValid && text !== 'P' && !text.endsWith('T'))
      return iso.toMillis();
    throw new Error(
      `"${input}" is not a duration: use a Go duration like 60s, 1h30m or 0, or ISO 8601 like PT1M`,
    );
  }
  if (input && typeof input === 'object') {
    // HumanDuration's fields are luxon's units; luxon throws on any other field or a non-number value.
    return Duration.fromObject(input).toMillis();
  }
  throw new Error('must be a duration');
}
