/**
 * A window of `width` px for `useMediaQuery` (jsdom has no matchMedia): answers `(min-width:Npx)`
 * and `(max-width:Npx)` queries, joined by `and`. Returns a function that restores the original.
 */
export function mockViewportWidth(width: number): () => void {
  const had = Object.prototype.hasOwnProperty.call(window, 'matchMedia');
  const original = window.matchMedia;
  const matches = (query: string) =>
    query.split(/\s+and\s+/).every(part => {
      const m = /\((min|max)-width:\s*([\d.]+)px\)/.exec(part);
      if (!m) return false;
      return m[1] === 'min' ? width >= Number(m[2]) : width <= Number(m[2]);
    });
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    writable: true,
    value: (query: string) => ({
      matches: matches(query),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
  return () => {
    if (had) window.matchMedia = original;
    else delete (window as any).matchMedia;
  };
}
