import type { CSSProperties } from 'react';
import { relativeTime } from '../../lib/relativeTime';

const NOWRAP: CSSProperties = { whiteSpace: 'nowrap' };

export interface RelativeTimeProps {
  /** An RFC 3339 time, as the API gives it. */
  iso?: string;
  /** Now, in ms (the table passes one for all its rows). */
  now?: number;
  /** Written before the relative time, e.g. "since ". */
  prefix?: string;
}

/**
 * "3 minutes ago", never wrapped, with the exact time (the API's RFC 3339 text) on hover and in
 * `dateTime`. A time it cannot read is shown as it is; no time at all renders nothing.
 */
export const RelativeTime = ({ iso, now, prefix = '' }: RelativeTimeProps) => {
  if (!iso) return null;
  const text = relativeTime(iso, now);
  if (!text) return <span>{iso}</span>;
  return (
    <time dateTime={iso} title={iso} style={NOWRAP}>
      {prefix}
      {text}
    </time>
  );
};
