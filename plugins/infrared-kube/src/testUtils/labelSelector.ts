/* The label selector as the API server reads it, for the in-memory fakes' LISTs. */
/** The terms of a label selector: split at the commas outside `in (...)` and `notin (...)`. */
function selectorTerms(selector: string): string[] {
  const terms = [''];
  let depth = 0;
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) terms.push('');
    else terms[terms.length - 1] += ch;
  }
  return terms.map(t => t.trim()).filter(Boolean);
}

function matchesTerm(labels: Record<string, string>, term: string): boolean {
  const set = /^(\S+)\s+(in|notin)\s*\((.*)\)$/.exec(term);
  if (set) {
    const value = labels[set[1]];
    const values = set[3].split(',').map(v => v.trim());
    if (set[2] === 'in') return value !== undefined && values.includes(value);
    return value === undefined || !values.includes(value);
  }
  if (term.startsWith('!')) return labels[term.slice(1).trim()] === undefined;
  const op = /^([^!=\s]+)\s*(!=|==|=)\s*(.*)$/.exec(term);
  if (!op) return labels[term] !== undefined;
  const value = labels[op[1]];
  return op[2] === '!=' ? value !== op[3] : value === op[3];
}

/**
 * Whether labels match a label selector as the API server reads it: `k=v`, `k==v`, `k!=v`, `k`,
 * `!k`, `k in (a,b)` and `k notin (a,b)`, comma-separated (all must hold).
 *
 * @public
 */
export function matchesLabelSelector(
  labels: Record<string, string> | undefined,
  selector: string | undefined,
): boolean {
  if (!selector) return true;
  return selectorTerms(selector).every(term => matchesTerm(labels ?? {}, term));
}
