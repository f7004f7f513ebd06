import { Fragment } from 'react';

const WHOLE = { whiteSpace: 'nowrap' } as const;

export interface BreakableTextProps {
  text: string;
  /** The characters after which the text may wrap (default `/`). */
  after?: string;
  /** Keep each part on one line (a path segment such as `cluster-edge-1.yaml` is not split at its hyphens). */
  wholeParts?: boolean;
}

/**
 * A URL or a path that wraps after its separators rather than inside a word: the table sizes the
 * column to its longest part instead of squeezing it letter by letter. The text reads (and
 * copies) as it is: `<wbr>` adds no character.
 */
export const BreakableText = ({
  text,
  after = '/',
  wholeParts = false,
}: BreakableTextProps) => {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (after.includes(text[i]) && i + 1 < text.length) {
      parts.push(text.slice(start, i + 1));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {wholeParts ? <span style={WHOLE}>{part}</span> : part}
        </Fragment>
      ))}
    </>
  );
};
